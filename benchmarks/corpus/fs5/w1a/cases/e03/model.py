import torch
import torch.nn as nn

from kernel_conv import KernelConv2D


def conv(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1), nn.LeakyReLU(0.1))


class FACDeblurNet(nn.Module):
    """Encoder -> filter adaptive convolution on features -> decoder."""

    def __init__(self, channels=16, kernel_size=3, filter_impl="fused"):
        super().__init__()
        self.encoder = nn.Sequential(conv(6, channels), conv(channels, channels, 2), conv(channels, channels))
        self.kernel_head = nn.Sequential(
            conv(channels * 2, channels),
            nn.Conv2d(channels, channels * kernel_size ** 2, 1),
        )
        self.fac = KernelConv2D(kernel_size, impl=filter_impl)
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(channels * 2, channels, 4, 2, 1), nn.LeakyReLU(0.1),
            nn.Conv2d(channels, 3, 3, 1, 1),
        )

    def forward(self, blurry, prev_restored, prev_feat):
        feat = self.encoder(torch.cat([blurry, prev_restored], dim=1))
        kernels = self.kernel_head(torch.cat([feat, prev_feat], dim=1))
        aligned = self.fac(prev_feat, kernels)
        out = self.decoder(torch.cat([feat, aligned], dim=1))
        return blurry + out, feat
