import torch
import torch.nn as nn
import torch.nn.functional as F


class SNConv2d(nn.Conv2d):
    """Conv2d with spectral normalization of its weight (Miyato et al., 2018)."""

    def __init__(self, *args, n_power_iterations=1, eps=1e-12, **kwargs):
        super().__init__(*args, **kwargs)
        self.n_power_iterations = n_power_iterations
        self.eps = eps
        h = self.weight.shape[0]
        self.register_buffer("u", F.normalize(torch.randn(h), dim=0, eps=eps))

    def spectral_norm(self):
        w_mat = self.weight.flatten(1)
        with torch.no_grad():
            for _ in range(self.n_power_iterations):
                v = F.normalize(torch.mv(w_mat.t(), self.u), dim=0, eps=self.eps)
                self.u.copy_(F.normalize(torch.mv(w_mat, v), dim=0, eps=self.eps))
        return torch.dot(self.u, torch.mv(w_mat, v))

    def forward(self, x):
        sigma = self.spectral_norm()
        return F.conv2d(x, self.weight / sigma, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)


class SNLinear(nn.Linear):
    def __init__(self, in_features, out_features, eps=1e-12):
        super().__init__(in_features, out_features)
        self.eps = eps
        self.register_buffer("u", F.normalize(torch.randn(out_features), dim=0, eps=eps))

    def forward(self, x):
        with torch.no_grad():
            v = F.normalize(torch.mv(self.weight.t(), self.u), dim=0, eps=self.eps)
            u = F.normalize(torch.mv(self.weight, v), dim=0, eps=self.eps)
            self.u = u
        sigma = torch.dot(u, torch.mv(self.weight, v))
        return F.linear(x, self.weight / sigma, self.bias)
