import torch.nn as nn


class SharedEncoder(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden),
            nn.LayerNorm(hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
        )

    def forward(self, x):
        return self.net(x)


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=20, hidden=64, num_classes=4):
        super().__init__()
        self.encoder = SharedEncoder(in_dim, hidden)
        self.cls_head = nn.Linear(hidden, num_classes)
        self.reg_head = nn.Sequential(nn.Linear(hidden, 32), nn.Tanh(), nn.Linear(32, 1))

    def shared_layer(self):
        return self.encoder.net[3]

    def forward(self, x):
        z = self.encoder(x)
        return self.cls_head(z), self.reg_head(z).squeeze(-1)
