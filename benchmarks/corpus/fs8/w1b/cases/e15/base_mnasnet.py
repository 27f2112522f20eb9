import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models.mnasnet import _InvertedResidual, _get_depths

_BN_MOMENTUM = 1 - 0.9997


class RegularConv(nn.Module):
    def __init__(self, kernel_size, in_ch, out_ch, skip, exp_ratio, stride):
        super().__init__()
        self.skip = skip and stride == 1 and in_ch == out_ch
        self.conv = nn.Conv2d(in_ch, out_ch, kernel_size, padding=kernel_size // 2, stride=stride, bias=False)
        self.relu = nn.ReLU(inplace=True)
        self.bn = nn.BatchNorm2d(out_ch, momentum=_BN_MOMENTUM)

    def forward(self, x):
        out = self.bn(self.relu(self.conv(x)))
        return out + x if self.skip else out


class DepthwiseConv(nn.Module):
    def __init__(self, kernel_size, in_ch, out_ch, skip, exp_ratio, stride):
        super().__init__()
        self.skip = skip and stride == 1 and in_ch == out_ch
        self.conv1 = nn.Conv2d(in_ch, in_ch, kernel_size, padding=kernel_size // 2,
                               stride=stride, groups=in_ch, bias=False)
        self.bn1 = nn.BatchNorm2d(in_ch, momentum=_BN_MOMENTUM)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(in_ch, out_ch, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch, momentum=_BN_MOMENTUM)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return out + x if self.skip else out


class MobileConv(nn.Module):
    def __init__(self, kernel_size, in_ch, out_ch, skip, exp_ratio, stride):
        super().__init__()
        self.block = _InvertedResidual(in_ch, out_ch, kernel_size, stride, exp_ratio, _BN_MOMENTUM)

    def forward(self, x):
        return self.block(x)


CANDIDATE_OPS = {"regular": RegularConv, "depthwise": DepthwiseConv, "mobile": MobileConv}


def build_stage(op_type, kernel_size, n_layers, in_ch, out_ch, skip, exp_ratio, stride):
    op = CANDIDATE_OPS[op_type]
    layers = [op(kernel_size, in_ch, out_ch, skip, exp_ratio, stride)]
    for _ in range(1, n_layers):
        layers.append(op(kernel_size, out_ch, out_ch, skip, exp_ratio, 1))
    return nn.Sequential(*layers)


class MNASNet(nn.Module):
    def __init__(self, alpha, arch, num_classes=10, dropout=0.2):
        super().__init__()
        depths = _get_depths(alpha)
        exp_ratios = [3, 3, 3, 6, 6, 6, 6]
        strides = [1, 2, 2, 2, 1, 2, 1]
        layers = [
            nn.Conv2d(3, depths[0], 3, padding=1, stride=2, bias=False),
            nn.BatchNorm2d(depths[0], momentum=_BN_MOMENTUM),
            nn.ReLU(inplace=True),
        ]
        in_ch = depths[0]
        for i, choice in enumerate(arch):
            out_ch = depths[i + 1]
            layers.append(build_stage(choice["op"], choice["kernel_size"], choice["n_layers"],
                                      in_ch, out_ch, choice["skip"], exp_ratios[i], strides[i]))
            in_ch = out_ch
        layers += [
            nn.Conv2d(in_ch, 1280, 1, padding=0, stride=1, bias=False),
            nn.BatchNorm2d(1280, momentum=_BN_MOMENTUM),
            nn.ReLU(inplace=True),
        ]
        self.layers = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Dropout(p=dropout, inplace=True),
                                        nn.Linear(1280, num_classes))

    def forward(self, x):
        x = self.layers(x)
        x = x.mean([2, 3])
        x = F.relu(x)
        return self.classifier(x)
