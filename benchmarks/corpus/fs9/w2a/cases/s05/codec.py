import torch
from torch import nn

from entropy import FactorizedPrior, GaussianModel


def quantize(x, training):
    if training:
        return x + torch.empty_like(x).uniform_(-0.5, 0.5)
    return torch.round(x)


class HyperpriorCodec(nn.Module):
    def __init__(self, n=16, m=8):
        super().__init__()
        self.g_a = nn.Sequential(nn.Conv2d(3, n, 5, 2, 2), nn.GELU(), nn.Conv2d(n, m, 5, 2, 2))
        self.g_s = nn.Sequential(nn.ConvTranspose2d(m, n, 5, 2, 2, 1), nn.GELU(),
                                 nn.ConvTranspose2d(n, 3, 5, 2, 2, 1))
        self.h_a = nn.Sequential(nn.Conv2d(m, n, 3, 1, 1), nn.ReLU(), nn.Conv2d(n, n, 5, 2, 2))
        self.h_s = nn.Sequential(nn.ConvTranspose2d(n, n, 5, 2, 2, 1), nn.ReLU(),
                                 nn.Conv2d(n, 2 * m, 3, 1, 1))
        self.z_prior = FactorizedPrior(n)
        self.y_model = GaussianModel()

    def forward(self, x):
        y = self.g_a(x)
        z = self.h_a(torch.abs(y))
        z_hat = quantize(z, self.training)
        params = self.h_s(z_hat)
        mu, sigma = params.chunk(2, dim=1)
        sigma = torch.relu(sigma)
        y_hat = quantize(y, self.training)
        x_hat = self.g_s(y_hat)
        y_likelihood = self.y_model(y_hat, sigma, mu)
        z_likelihood = self.z_prior(z_hat)
        return x_hat, y_likelihood, z_likelihood
