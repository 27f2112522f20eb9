import torch.nn as nn
import torch.nn.functional as F

from attention_augmented_conv import AugmentedConv


class WideBasic(nn.Module):
    def __init__(self, in_planes, planes, dropout_rate, shape, stride=1, augment=False):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(in_planes)
        if augment:
            self.conv1 = AugmentedConv(in_planes, planes, kernel_size=3, dk=planes // 2, dv=planes // 4,
                                       Nh=4, shape=shape, relative=True)
        else:
            self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, padding=1, bias=True)
        self.dropout = nn.Dropout(p=dropout_rate)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=stride, padding=1, bias=True)

        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(nn.Conv2d(in_planes, planes, kernel_size=1, stride=stride, bias=True))

    def forward(self, x):
        out = self.dropout(self.conv1(F.relu(self.bn1(x))))
        out = self.conv2(F.relu(self.bn2(out)))
        return out + self.shortcut(x)


class WideResNet(nn.Module):
    def __init__(self, depth, widen_factor, dropout_rate, num_classes, shape=16, augment_stages=(1, 2)):
        super().__init__()
        assert (depth - 4) % 6 == 0, "Wide-resnet depth should be 6n+4"
        n = (depth - 4) // 6
        k = widen_factor
        widths = [16, 16 * k, 32 * k, 64 * k]

        self.in_planes = widths[0]
        self.conv1 = nn.Conv2d(3, widths[0], kernel_size=3, stride=1, padding=1, bias=True)
        self.layer1 = self._make_layer(widths[1], n, dropout_rate, shape, 1, 1 in augment_stages)
        self.layer2 = self._make_layer(widths[2], n, dropout_rate, shape, 2, 2 in augment_stages)
        self.layer3 = self._make_layer(widths[3], n, dropout_rate, shape // 2, 2, 3 in augment_stages)
        self.bn1 = nn.BatchNorm2d(widths[3], momentum=0.9)
        self.linear = nn.Linear(widths[3], num_classes)

    def _make_layer(self, planes, num_blocks, dropout_rate, shape, stride, augment):
        strides = [stride] + [1] * (num_blocks - 1)
        layers = []
        for s in strides:
            layers.append(WideBasic(self.in_planes, planes, dropout_rate, shape, s, augment))
            self.in_planes = planes
        return nn.Sequential(*layers)

    def forward(self, x):
        out = self.conv1(x)
        out = self.layer1(out)
        out = self.layer2(out)
        out = self.layer3(out)
        out = F.relu(self.bn1(out))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.linear(out)
