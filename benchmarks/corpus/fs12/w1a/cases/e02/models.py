import torch
import torch.nn as nn


class FactorVAE(nn.Module):
    def __init__(self, in_dim=64, z_dim=8, hidden=128):
        super().__init__()
        self.z_dim = z_dim
        self.encode = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 2 * z_dim),
        )
        self.decode = nn.Sequential(
            nn.Linear(z_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, in_dim),
        )

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp()
        return mu + std * torch.randn_like(std)

    def forward(self, x, no_dec=False):
        stats = self.encode(x)
        mu, logvar = stats[:, :self.z_dim], stats[:, self.z_dim:]
        z = self.reparametrize(mu, logvar)
        if no_dec:
            return z.squeeze()
        x_recon = self.decode(z)
        return x_recon, mu, logvar, z.squeeze()


class Discriminator(nn.Module):
    def __init__(self, z_dim=8, hidden=256):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(z_dim, hidden), nn.LeakyReLU(0.2, True),
            nn.Linear(hidden, hidden), nn.LeakyReLU(0.2, True),
            nn.Linear(hidden, 2),
        )

    def forward(self, z):
        return self.net(z).squeeze()
