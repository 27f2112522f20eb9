"""A backbone is frozen by a helper, which also puts it in eval mode; the training loop calls
model.train() every epoch, which puts the frozen batch norms back in train mode: their running
statistics keep moving."""
import torch
from torch import nn


def no_grad_for(module):
    for p in module.parameters():
        p.requires_grad = False


def freeze_backbone(model):
    no_grad_for(model[0])
    model[0].eval()


torch.manual_seed(0)
model = nn.Sequential(nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                    nn.Flatten()), nn.Linear(8, 2))
freeze_backbone(model)
optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
for epoch in range(2):
    model.train()
    for step in range(2):
        loss = nn.functional.cross_entropy(model(torch.randn(4, 3, 8, 8)), torch.randint(0, 2, (4,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
