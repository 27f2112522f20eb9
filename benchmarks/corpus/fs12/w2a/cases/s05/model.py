import torch
import torch.nn as nn


class FeatureExtractor(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, 2, 1), nn.BatchNorm2d(width), nn.ReLU())
        self.stage1 = nn.Sequential(nn.Conv2d(width, width * 2, 3, 2, 1), nn.BatchNorm2d(width * 2), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Conv2d(width * 2, width * 4, 3, 2, 1), nn.BatchNorm2d(width * 4), nn.ReLU())
        self.out_channels = width * 4

    def forward(self, x):
        return self.stage2(self.stage1(self.stem(x)))


class PoseHead(nn.Module):
    def __init__(self, in_ch):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Sequential(nn.Linear(in_ch, 128), nn.ReLU(), nn.Linear(128, 7))

    def forward(self, feat):
        out = self.fc(self.pool(feat).flatten(1))
        t, q = out[:, :3], out[:, 3:]
        return t, q / q.norm(dim=1, keepdim=True).clamp_min(1e-6)


class PoseRegressor(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.backbone = FeatureExtractor(width)
        self.head = PoseHead(self.backbone.out_channels)

    def forward(self, img):
        return self.head(self.backbone(img))
