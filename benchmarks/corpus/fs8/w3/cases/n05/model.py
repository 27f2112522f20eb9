import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint
from torchvision.models import resnet18
from torchvision.ops.misc import FrozenBatchNorm2d


class ResNetEncoder(nn.Module):
    def __init__(self, use_checkpoint=True):
        super().__init__()
        net = resnet18(weights=None, norm_layer=FrozenBatchNorm2d)
        self.stem = nn.Sequential(net.conv1, net.bn1, net.relu, net.maxpool)
        self.stages = nn.ModuleList([net.layer1, net.layer2, net.layer3, net.layer4])
        self.use_checkpoint = use_checkpoint

    def forward(self, x):
        x = self.stem(x)
        feats = []
        for stage in self.stages:
            if self.use_checkpoint and self.training:
                x = checkpoint(stage, x, use_reentrant=False)
            else:
                x = stage(x)
            feats.append(x)
        return feats


class FPNHead(nn.Module):
    def __init__(self, in_channels=(64, 128, 256, 512), dim=64, num_classes=3):
        super().__init__()
        self.lateral = nn.ModuleList([nn.Conv2d(c, dim, 1) for c in in_channels])
        self.smooth = nn.Sequential(nn.Conv2d(dim, dim, 3, padding=1), nn.BatchNorm2d(dim), nn.ReLU(inplace=True))
        self.cls = nn.Conv2d(dim, num_classes, 1)

    def forward(self, feats):
        y = self.lateral[-1](feats[-1])
        for f, lat in zip(reversed(feats[:-1]), reversed(self.lateral[:-1])):
            y = F.interpolate(y, size=f.shape[-2:], mode="nearest")
            y = y + lat(f)
        return self.cls(self.smooth(y))


class Segmenter(nn.Module):
    def __init__(self, num_classes=3, use_checkpoint=True):
        super().__init__()
        self.encoder = ResNetEncoder(use_checkpoint)
        self.head = FPNHead(num_classes=num_classes)

    def forward(self, x):
        logits = self.head(self.encoder(x))
        return F.interpolate(logits, size=x.shape[-2:], mode="bilinear", align_corners=False)
