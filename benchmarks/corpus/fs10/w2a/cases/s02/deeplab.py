import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import resnet18


class ResNetBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        net = resnet18(weights=None)
        self.stem = nn.Sequential(net.conv1, net.bn1, net.relu, net.maxpool)
        self.layer1 = net.layer1
        self.layer2 = net.layer2
        self.layer3 = net.layer3

    def forward(self, x):
        x = self.stem(x)
        low_level_feat = self.layer1(x)
        x = self.layer2(low_level_feat)
        x = self.layer3(x)
        return x, low_level_feat


class ASPP(nn.Module):
    def __init__(self, inplanes, planes=64, dilations=(1, 2, 4)):
        super().__init__()
        self.branches = nn.ModuleList([
            nn.Sequential(nn.Conv2d(inplanes, planes, 3 if d > 1 else 1, padding=d if d > 1 else 0,
                                    dilation=d, bias=False),
                          nn.BatchNorm2d(planes), nn.ReLU())
            for d in dilations
        ])
        self.project = nn.Sequential(nn.Conv2d(planes * len(dilations), planes, 1, bias=False),
                                     nn.BatchNorm2d(planes), nn.ReLU(), nn.Dropout(0.5))

    def forward(self, x):
        return self.project(torch.cat([b(x) for b in self.branches], dim=1))


class Decoder(nn.Module):
    def __init__(self, num_classes, low_level_inplanes=64, planes=64):
        super().__init__()
        self.reduce = nn.Sequential(nn.Conv2d(low_level_inplanes, 24, 1, bias=False),
                                    nn.BatchNorm2d(24), nn.ReLU())
        self.last_conv = nn.Sequential(nn.Conv2d(planes + 24, planes, 3, padding=1, bias=False),
                                       nn.BatchNorm2d(planes), nn.ReLU(),
                                       nn.Conv2d(planes, num_classes, 1))

    def forward(self, x, low_level_feat):
        low_level_feat = self.reduce(low_level_feat)
        x = F.interpolate(x, size=low_level_feat.shape[2:], mode="bilinear", align_corners=True)
        return self.last_conv(torch.cat([x, low_level_feat], dim=1))


class DeepLab(nn.Module):
    def __init__(self, num_classes=5, freeze_bn=False):
        super().__init__()
        self.backbone = ResNetBackbone()
        self.aspp = ASPP(256)
        self.decoder = Decoder(num_classes)
        if freeze_bn:
            self.freeze_bn()

    def forward(self, input):
        x, low_level_feat = self.backbone(input)
        x = self.aspp(x)
        x = self.decoder(x, low_level_feat)
        return F.interpolate(x, size=input.shape[2:], mode="bilinear", align_corners=True)

    def freeze_bn(self):
        for m in self.backbone.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()

    def get_1x_lr_params(self):
        return self.backbone.parameters()

    def get_10x_lr_params(self):
        for module in (self.aspp, self.decoder):
            yield from module.parameters()
