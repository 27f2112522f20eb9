import torch
from torch import nn

import compat  # noqa: F401
import torchvision


class conv_bn_relu(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.conv(x)))


class resnet(nn.Module):
    def __init__(self, layers="18"):
        super().__init__()
        model = getattr(torchvision.models, "resnet" + layers)(weights=None)
        self.conv1, self.bn1, self.relu, self.maxpool = model.conv1, model.bn1, model.relu, model.maxpool
        self.layer1, self.layer2 = model.layer1, model.layer2
        self.layer3, self.layer4 = model.layer3, model.layer4

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        x2 = self.layer2(x)
        x3 = self.layer3(x2)
        fea = self.layer4(x3)
        return x2, x3, fea


class parsingNet(nn.Module):
    def __init__(self, size=(64, 160), backbone="18", cls_dim=(9, 4, 2)):
        super().__init__()
        self.cls_dim = cls_dim
        self.total_dim = int(torch.tensor(cls_dim).prod())
        self.model = resnet(backbone)
        h, w = size[0] // 32, size[1] // 32
        self.cls = nn.Sequential(
            nn.Linear(8 * h * w, 64),
            nn.ReLU(),
            nn.Linear(64, self.total_dim),
        )
        self.pool = nn.Conv2d(512, 8, 1)
        self.flat_dim = 8 * h * w

    def forward(self, x):
        x2, x3, fea = self.model(x)
        fea = self.pool(fea).view(-1, self.flat_dim)
        group_cls = self.cls(fea).view(-1, *self.cls_dim)
        return group_cls
