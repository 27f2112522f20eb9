import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.LeakyReLU(0.2),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.LeakyReLU(0.2))


class UnetTMO(nn.Module):
    """Predicts a per-pixel gamma map; the enhanced image is x ** gamma."""

    def __init__(self, base=8):
        super().__init__()
        self.enc1 = conv_block(3, base)
        self.enc2 = conv_block(base, base * 2)
        self.dec1 = conv_block(base * 3, base)
        self.out = nn.Conv2d(base, 3, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.avg_pool2d(e1, 2))
        up = F.interpolate(e2, scale_factor=2, mode="bilinear", align_corners=False)
        d1 = self.dec1(torch.cat([up, e1], dim=1))
        gamma = torch.exp(torch.tanh(self.out(d1)))
        return x.clamp(1e-4, 1.0) ** gamma, gamma
