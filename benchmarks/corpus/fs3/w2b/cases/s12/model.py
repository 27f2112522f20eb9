import torch
import torch.nn as nn

from functions import my_add


class ResidualMLPBlock(nn.Module):
    def __init__(self, dim, hidden, fused_add=False):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)
        self.fused_add = fused_add

    def forward(self, x):
        h = self.fc2(self.act(self.fc1(self.norm(x))))
        if self.fused_add:
            return my_add(x, h)
        return x + h


class TabularResNet(nn.Module):
    def __init__(self, in_features, num_classes, dim=32, hidden=64, depth=3, fused_add=False):
        super().__init__()
        self.stem = nn.Linear(in_features, dim)
        self.blocks = nn.Sequential(*[ResidualMLPBlock(dim, hidden, fused_add) for _ in range(depth)])
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_classes))

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))
