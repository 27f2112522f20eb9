import torch
from torch import nn


def standard_cumulative(x):
    return 0.5 * torch.erfc(-(2 ** -0.5) * x)


class GaussianModel(nn.Module):
    def __init__(self):
        super().__init__()

    def _cumulative(self, inputs, stds, mu):
        half = 0.5
        eps = 1e-6
        upper = (inputs - mu + half) / stds
        lower = (inputs - mu - half) / stds
        cdf_upper = standard_cumulative(upper)
        cdf_lower = standard_cumulative(lower)
        return cdf_upper - cdf_lower

    def forward(self, inputs, hyper_sigma, hyper_mu):
        likelihood = self._cumulative(inputs, hyper_sigma, hyper_mu)
        return torch.clamp(likelihood, min=1e-9)


class FactorizedPrior(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, channels, 1, 1))
        self.log_scale = nn.Parameter(torch.zeros(1, channels, 1, 1))

    def forward(self, z):
        scale = self.log_scale.exp()
        upper = standard_cumulative((z - self.loc + 0.5) / scale)
        lower = standard_cumulative((z - self.loc - 0.5) / scale)
        return torch.clamp(upper - lower, min=1e-9)
