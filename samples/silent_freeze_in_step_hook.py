"""A training recipe freezes the encoder from step 4 on; its schedule runs from an optimizer step
pre-hook, inside the step, after the backward filled the encoder's .grad: that step still
updates the encoder it froze."""
import torch
from torch import nn


class FreezeSchedule:
    def __init__(self, module, start_step):
        self.module, self.start_step, self.step = module, start_step, 0

    def __call__(self, optimizer, args, kwargs):
        self.step += 1
        if self.step == self.start_step:
            for param in self.module.parameters():
                param.requires_grad = False


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
schedule = FreezeSchedule(model[0], start_step=4)
optimizer.register_step_pre_hook(lambda opt, args, kwargs: schedule(opt, args, kwargs))
for step in range(6):
    loss = nn.functional.cross_entropy(model(torch.randn(16, 8)), torch.randint(0, 2, (16,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
