import torch
import torch.nn as nn

from stn import params_to_homography, warp


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1),
        nn.BatchNorm2d(cout),
        nn.ReLU(),
        nn.MaxPool2d(2),
    )


class HomographyNet(nn.Module):
    def __init__(self, ch=16, scale=0.05):
        super().__init__()
        self.features = nn.Sequential(conv_block(2, ch), conv_block(ch, ch * 2), conv_block(ch * 2, ch * 2))
        self.head = nn.Sequential(nn.Flatten(), nn.LazyLinear(64), nn.ReLU(), nn.Linear(64, 8))
        self.scale = scale

    def forward(self, img_a, img_b):
        x = torch.cat([img_a, img_b], dim=1)
        offsets = self.head(self.features(x)) * self.scale
        H = params_to_homography(offsets)
        warped = warp(img_b, H)
        return warped, H


def photometric_loss(warped, target):
    mask = (warped.abs().sum(dim=1, keepdim=True) > 0).float()
    return ((warped - target).abs() * mask).sum() / mask.sum().clamp(min=1.0)
