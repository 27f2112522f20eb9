import torch.nn as nn

from functions import grad_reverse


class DANN(nn.Module):
    def __init__(self, in_dim=10, feat=32):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(in_dim, feat), nn.ReLU(), nn.Linear(feat, feat), nn.ReLU())
        self.regressor = nn.Sequential(nn.Linear(feat, 16), nn.ReLU(), nn.Linear(16, 1))
        self.domain = nn.Sequential(nn.Linear(feat, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x, lambd=0.0):
        f = self.feature(x)
        y = self.regressor(f).squeeze(-1)
        d = self.domain(grad_reverse(f, lambd)).squeeze(-1)
        return y, d
