import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm


class G(nn.Module):
    def __init__(self, dim_z=16, ch=16):
        super().__init__()
        self.ch = ch
        self.fc = nn.Linear(dim_z, ch * 4 * 4)
        self.blocks = nn.Sequential(
            nn.Upsample(scale_factor=2), nn.Conv2d(ch, ch, 3, 1, 1), nn.BatchNorm2d(ch), nn.ReLU(),
            nn.Upsample(scale_factor=2), nn.Conv2d(ch, ch, 3, 1, 1), nn.BatchNorm2d(ch), nn.ReLU(),
            nn.Conv2d(ch, 1, 3, 1, 1), nn.Tanh())

    def forward(self, z):
        return self.blocks(self.fc(z).view(-1, self.ch, 4, 4))


class D(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            spectral_norm(nn.Conv2d(1, ch, 3, 2, 1)), nn.LeakyReLU(0.2),
            spectral_norm(nn.Conv2d(ch, ch, 3, 2, 1)), nn.LeakyReLU(0.2),
            nn.Flatten(), spectral_norm(nn.Linear(ch * 4 * 4, 1)))

    def forward(self, x):
        return self.net(x).view(-1)
