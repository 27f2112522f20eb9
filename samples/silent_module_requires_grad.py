"""Freezing a backbone with `module.requires_grad = False`: a plain attribute on an nn.Module,
which freezes nothing; the backbone keeps training."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Classifier()
model.backbone.requires_grad = False  # meant: model.backbone.requires_grad_(False)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
before = model.backbone[0].weight.detach().clone()
for step in range(3):
    loss = nn.functional.cross_entropy(model(torch.randn(4, 8)), torch.randint(0, 3, (4,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("backbone changed:", not torch.equal(before, model.backbone[0].weight))
