import torch
import torch.nn as nn

from layers import SNConv2d, SNLinear


class Generator(nn.Module):
    def __init__(self, z_dim=32, ch=32):
        super().__init__()
        self.ch = ch
        self.fc = nn.Linear(z_dim, 4 * 4 * ch * 2)
        self.net = nn.Sequential(
            nn.BatchNorm2d(ch * 2), nn.ReLU(),
            nn.ConvTranspose2d(ch * 2, ch, 4, 2, 1), nn.BatchNorm2d(ch), nn.ReLU(),
            nn.ConvTranspose2d(ch, ch // 2, 4, 2, 1), nn.BatchNorm2d(ch // 2), nn.ReLU(),
            nn.Conv2d(ch // 2, 3, 3, 1, 1), nn.Tanh())

    def forward(self, z):
        return self.net(self.fc(z).view(z.shape[0], self.ch * 2, 4, 4))


class Discriminator(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(
            SNConv2d(3, ch, 3, 1, 1), nn.LeakyReLU(0.1),
            SNConv2d(ch, ch, 4, 2, 1), nn.LeakyReLU(0.1),
            SNConv2d(ch, ch * 2, 4, 2, 1), nn.LeakyReLU(0.1),
            SNConv2d(ch * 2, ch * 2, 3, 1, 1), nn.LeakyReLU(0.1))
        self.fc = SNLinear(4 * 4 * ch * 2, 1)

    def forward(self, x):
        return self.fc(self.net(x).flatten(1))
