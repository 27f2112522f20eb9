"""A freeze schedule freezes the encoder at epoch 3, long after the optimizer was built over every
parameter. zero_grad(set_to_none=False) leaves a zero .grad on the frozen weights, so SGD's
momentum and weight decay keep moving them: the "frozen" encoder still changes."""

import torch
from torch import nn

SCHEDULE = {3: ["encoder"]}


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 16)
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        return self.head(torch.relu(self.encoder(x)))


def apply_freezes(model, epoch):
    for name in SCHEDULE.get(epoch, []):
        for param in getattr(model, name).parameters():
            param.requires_grad_(False)


torch.manual_seed(0)
model = Tagger()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-3)
x, y = torch.randn(32, 8), torch.randint(0, 3, (32,))
for epoch in range(6):
    apply_freezes(model, epoch)
    optimizer.zero_grad(set_to_none=False)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
