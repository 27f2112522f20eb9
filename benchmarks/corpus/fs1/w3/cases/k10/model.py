import torch.nn as nn

from functions import leaky_relu_


class ActivatedBatchNorm(nn.BatchNorm2d):
    def __init__(self, num_features, negative_slope=0.01):
        super().__init__(num_features)
        self.negative_slope = negative_slope

    def forward(self, x):
        return leaky_relu_(super().forward(x), self.negative_slope)


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = ActivatedBatchNorm(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        out = self.bn1(self.conv1(x))
        out = self.bn2(self.conv2(out))
        return leaky_relu_(out + x, 0.01)


class SegNet(nn.Module):
    def __init__(self, in_ch=3, width=16, num_classes=4, depth=2):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1, bias=False), ActivatedBatchNorm(width))
        self.blocks = nn.Sequential(*[ResidualBlock(width) for _ in range(depth)])
        self.classifier = nn.Conv2d(width, num_classes, 1)

    def forward(self, x):
        return self.classifier(self.blocks(self.stem(x)))
