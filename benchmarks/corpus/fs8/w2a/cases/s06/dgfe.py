import torch
import torch.nn.functional as F
from torch import nn


class ReconstructionHead(nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(in_channels, 64, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(64, 32, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(32, 3, 1),
        )

    def forward(self, feat, size):
        recon = self.layers(feat)
        return torch.sigmoid(F.interpolate(recon, size=size, mode="bilinear", align_corners=False))


class DGFE(nn.Module):
    def __init__(self, channels, thresh_init):
        super().__init__()
        self.learnable_thresh = nn.Parameter(torch.tensor(thresh_init))
        self.channel_att = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(channels, channels // 4, 1),
            nn.ReLU(inplace=True),
            nn.Conv2d(channels // 4, channels, 1),
            nn.Sigmoid(),
        )

    def forward(self, feat, difference_map):
        difference_map = F.interpolate(difference_map, size=feat.shape[-2:], mode="bilinear",
                                       align_corners=False)
        difference_map_mask = (torch.sign(difference_map - self.learnable_thresh) + 1) * 0.5
        enhanced = feat * difference_map_mask * self.channel_att(feat)
        return feat + enhanced
