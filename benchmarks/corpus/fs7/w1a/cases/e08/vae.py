import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, latent=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.ReLU(),
                                 nn.Conv2d(16, 32, 4, 2, 1), nn.ReLU(), nn.Flatten())
        self.mu = nn.Linear(32 * 7 * 7, latent)
        self.logvar = nn.Linear(32 * 7 * 7, latent)
        self.dec_fc = nn.Linear(latent, 32 * 7 * 7)
        self.dec = nn.Sequential(nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(16, 1, 4, 2, 1))

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        recon = torch.sigmoid(self.dec(self.dec_fc(z).view(-1, 32, 7, 7)))
        return recon, mu, logvar


class VAELoss(nn.Module):
    def __init__(self, beta=1.0):
        super().__init__()
        self.beta = beta

    def forward(self, output, target):
        recon, mu, logvar = output
        bce = F.binary_cross_entropy(recon, target, reduction="sum") / target.shape[0]
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / target.shape[0]
        return bce + self.beta * kld
