import torch.nn as nn


class Trunk(nn.Module):
    def __init__(self, in_dim=20, hidden=64):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.LayerNorm(hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
        )

    def forward(self, x):
        return self.layers(x)


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=20, hidden=64, n_classes=5):
        super().__init__()
        self.trunk = Trunk(in_dim, hidden)
        self.cls_head = nn.Linear(hidden, n_classes)
        self.reg_head = nn.Linear(hidden, 1)

    def forward(self, x):
        feat = self.trunk(x)
        return self.cls_head(feat), self.reg_head(feat).squeeze(-1)
