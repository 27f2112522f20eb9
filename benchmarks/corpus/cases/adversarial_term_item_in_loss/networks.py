import torch.nn as nn


class ReconNet(nn.Module):
    """Small U-Net-like MR reconstruction net that also returns its latent features."""

    def __init__(self, ch=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, ch, 3, 2, 1), nn.ReLU(), nn.Conv2d(ch, ch, 3, 1, 1), nn.ReLU())
        self.dec = nn.Sequential(nn.ConvTranspose2d(ch, ch, 4, 2, 1), nn.ReLU(), nn.Conv2d(ch, 1, 3, 1, 1))

    def forward(self, x):
        z = self.enc(x)
        return self.dec(z), z


class FeatureDiscriminator(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, ch, 3, 2, 1), nn.LeakyReLU(0.2),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(ch, 2))

    def forward(self, z):
        return self.net(z)
