import torch
import torch.nn as nn


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv3d(cin, cout, 3, padding=1),
        nn.InstanceNorm3d(cout, affine=True),
        nn.LeakyReLU(0.01),
    )


class MaskedUnet3D(nn.Module):
    def __init__(self, in_channels=4, base=8, volume_size=24, mask_patch=4):
        super().__init__()
        self.mask_patch = mask_patch
        self.limage = nn.Parameter(torch.zeros(1, in_channels, volume_size, volume_size, volume_size))
        self.enc1 = conv_block(in_channels, base)
        self.down = nn.Conv3d(base, base * 2, 2, stride=2)
        self.enc2 = conv_block(base * 2, base * 2)
        self.up = nn.ConvTranspose3d(base * 2, base, 2, stride=2)
        self.dec1 = conv_block(base * 2, base)
        self.out = nn.Conv3d(base, in_channels, 1)

    def random_mask(self, x, ratio):
        B, _, D, H, W = x.shape
        m = self.mask_patch
        coarse = (torch.rand(B, 1, D // m, H // m, W // m) > ratio).float()
        return coarse.repeat_interleave(m, 2).repeat_interleave(m, 3).repeat_interleave(m, 4)

    def forward(self, x, locations, mask_ratio=0.5):
        mask = self.random_mask(x, mask_ratio)
        for l in range(x.shape[0]):
            (z0, y0, x0), (z1, y1, x1) = locations[l]
            x[l] = x[l] * mask[l] + self.limage[0, :, z0:z1, y0:y1, x0:x1] * (1 - mask[l])
        e1 = self.enc1(x)
        e2 = self.enc2(self.down(e1))
        d1 = self.dec1(torch.cat([self.up(e2), e1], dim=1))
        return self.out(d1), mask
