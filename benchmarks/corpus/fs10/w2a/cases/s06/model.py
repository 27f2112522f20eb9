import torch
import torch.nn as nn

from ops import mul_constant


class ConvBlock(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class DeepSupervisionNet(nn.Module):
    def __init__(self, num_classes=6, width=16, aux_weight=0.4):
        super().__init__()
        self.stage1 = nn.Sequential(ConvBlock(3, width), nn.MaxPool2d(2))
        self.stage2 = nn.Sequential(ConvBlock(width, width * 2), nn.MaxPool2d(2))
        self.stage3 = nn.Sequential(ConvBlock(width * 2, width * 4), nn.AdaptiveAvgPool2d(1))
        self.aux_head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width * 2, num_classes))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(width * 4, num_classes))
        self.aux_weight = aux_weight

    def forward(self, x):
        f1 = self.stage1(x)
        f2 = self.stage2(f1)
        out = self.head(self.stage3(f2))
        if self.training:
            aux = self.aux_head(mul_constant(f2, self.aux_weight))
            return out, aux
        return out
