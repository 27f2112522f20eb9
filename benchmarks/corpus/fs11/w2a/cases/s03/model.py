import torch
from torch import nn


class Conv(nn.Module):
    def __init__(self, c1, c2, k=3, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class ClassificationModel(nn.Module):
    def __init__(self, nc=5, ch=3):
        super().__init__()
        self.model = nn.Sequential(Conv(ch, 8, 3, 2), Conv(8, 16, 3, 2), Conv(16, 16, 3, 1))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.linear = nn.Linear(16, nc)

    def forward(self, x):
        return self.linear(self.pool(self.model(x)).flatten(1))

    def loss(self, batch):
        preds = self(batch["img"])
        loss = nn.functional.cross_entropy(preds, batch["cls"])
        return loss * batch["img"].shape[0], loss.detach()
