import torch
import torch.nn as nn
import torch.nn.functional as F


class SNLinear(nn.Linear):
    """Linear layer whose weight is divided by its largest singular value (one power iteration)."""

    def __init__(self, in_features, out_features, eps=1e-12):
        super().__init__(in_features, out_features)
        self.eps = eps
        self.register_buffer("u", F.normalize(torch.randn(out_features), dim=0, eps=eps))

    def forward(self, x):
        w = self.weight
        with torch.no_grad():
            v = F.normalize(torch.mv(w.t(), self.u), dim=0, eps=self.eps)
            self.u.copy_(F.normalize(torch.mv(w, v), dim=0, eps=self.eps))
        sigma = torch.dot(self.u, torch.mv(w, v))
        return F.linear(x, w / sigma, self.bias)


class Discriminator(nn.Module):
    def __init__(self, in_dim=64, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            SNLinear(in_dim, hidden), nn.LeakyReLU(0.1),
            SNLinear(hidden, hidden), nn.LeakyReLU(0.1),
            SNLinear(hidden, 1))

    def forward(self, x):
        return self.net(x)
