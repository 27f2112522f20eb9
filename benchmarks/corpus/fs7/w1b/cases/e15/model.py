import compat  # noqa: F401

import torch
from torch import nn
from torch.nn import functional as F
from torchvision.models import resnet
from torchvision.models._utils import IntermediateLayerGetter

from spatial_conv import SpatialConv


class RESAReducer(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class SimpleLaneExist(nn.Module):
    def __init__(self, num_output, flattened_size):
        super().__init__()
        self.avgpool = nn.AvgPool2d(2, 2)
        self.linear1 = nn.Linear(flattened_size, 64)
        self.linear2 = nn.Linear(64, num_output)

    def forward(self, x, predict=False):
        x = F.softmax(x, dim=1)
        x = self.avgpool(x).flatten(1)
        x = F.relu(self.linear1(x))
        return self.linear2(x)


class SCNN(nn.Module):
    def __init__(self, cfg, input_size):
        super().__init__()
        backbone = resnet.__dict__[cfg["backbone"]["arch"]](
            weights=None,
            replace_stride_with_dilation=cfg["backbone"]["replace_stride_with_dilation"])
        self.backbone = IntermediateLayerGetter(backbone, return_layers={"layer2": "out"})
        self.reducer = RESAReducer(**cfg["reducer"])
        self.spatial_conv = SpatialConv(**cfg["spatial_conv"])
        self.decoder = nn.Sequential(nn.Dropout2d(0.1),
                                     nn.Conv2d(cfg["reducer"]["out_channels"], cfg["num_classes"], 1))
        h, w = input_size[0] // 8, input_size[1] // 8
        self.lane_classifier = SimpleLaneExist(cfg["num_lanes"], cfg["num_classes"] * (h // 2) * (w // 2))

    def forward(self, x):
        size = x.shape[-2:]
        x = self.backbone(x)["out"]
        x = self.reducer(x)
        x = self.spatial_conv(x)
        seg = self.decoder(x)
        lane = self.lane_classifier(seg)
        seg = F.interpolate(seg, size=size, mode="bilinear", align_corners=True)
        return {"out": seg, "lane": lane}
