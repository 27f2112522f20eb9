import torch.nn as nn


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=20, hidden=64, n_classes=3):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.cls_head = nn.Linear(hidden, n_classes)
        self.reg_head = nn.Sequential(nn.Linear(hidden, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        z = self.encoder(x)
        return self.cls_head(z), self.reg_head(z).squeeze(-1)
