import torch
import torch.nn as nn


class IncResBlock(nn.Module):
    """Inception-style residual block: parallel 1-D convs of different widths plus a 1x1 shortcut."""

    def __init__(self, inplanes, planes):
        super().__init__()
        self.shortcut = nn.Conv1d(inplanes, planes, kernel_size=1, bias=False)
        self.branches = nn.ModuleList([
            nn.Sequential(nn.Conv1d(inplanes, planes // 2, k, padding=k // 2), nn.BatchNorm1d(planes // 2))
            for k in (7, 15)
        ])
        self.relu = nn.ReLU()

    def forward(self, x):
        residual = self.shortcut(x)
        out = torch.cat([branch(x) for branch in self.branches], dim=1)
        out = out + residual
        return self.relu(out)


class IncUNet(nn.Module):
    def __init__(self, in_channels=1):
        super().__init__()
        self.e1 = nn.Sequential(
            nn.Conv1d(in_channels, 16, kernel_size=4, stride=2, padding=1),
            nn.BatchNorm1d(16), nn.LeakyReLU(0.2), IncResBlock(16, 16))
        self.e2 = nn.Sequential(
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv1d(16, 32, kernel_size=4, stride=2, padding=1),
            nn.BatchNorm1d(32), IncResBlock(32, 32))
        self.d1 = nn.Sequential(
            nn.LeakyReLU(0.2), nn.ConvTranspose1d(32, 16, kernel_size=4, stride=2, padding=1),
            nn.BatchNorm1d(16))
        self.out_l = nn.Sequential(
            nn.LeakyReLU(0.2), nn.ConvTranspose1d(32, in_channels, kernel_size=4, stride=2, padding=1))

    def forward(self, x):
        en1 = self.e1(x)
        en2 = self.e2(en1)
        de1 = torch.cat([en1, self.d1(en2)], dim=1)
        return self.out_l(de1)
