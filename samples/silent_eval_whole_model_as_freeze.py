"""Fine-tuning only a new head: the whole model is put in eval mode as its "freeze", and the head
put back in train mode. .eval() freezes nothing: every backbone parameter still requires grad,
so the requires_grad filter hands them all to the optimizer, and the backbone trains too."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(8, 4))

    def forward(self, x):
        return self.head(self.backbone(x))


def prepare_for_finetuning(model):
    model.eval()
    model.head.train()


torch.manual_seed(0)
model = Net()
prepare_for_finetuning(model)
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.05)
for step in range(4):
    x, y = torch.randn(8, 3, 12, 12), torch.randint(0, 4, (8,))
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
