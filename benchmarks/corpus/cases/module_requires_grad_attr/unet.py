import torch
import torch.nn as nn
import torch.nn.functional as F


class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class UNet(nn.Module):
    def __init__(self, n_channels=1, n_classes=4):
        super().__init__()
        self.inc = DoubleConv(n_channels, 8)
        self.down = DoubleConv(8, 16)
        self.up = DoubleConv(24, 8)
        self.outc = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(F.max_pool2d(x1, 2))
        x3 = F.interpolate(x2, scale_factor=2, mode="nearest")
        x = self.up(torch.cat([x1, x3], dim=1))
        return self.outc(x)
