import torch
import torch.nn as nn


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class SmallNet(nn.Module):
    def __init__(self, num_classes=10, width=16, drop=0.2):
        super().__init__()
        self.features = nn.Sequential(
            ConvBlock(3, width),
            nn.MaxPool2d(2),
            ConvBlock(width, width * 2),
            nn.AdaptiveAvgPool2d(1),
        )
        self.dropout = nn.Dropout(drop)
        self.fc = nn.Linear(width * 2, num_classes)

    def forward(self, x):
        x = self.features(x).flatten(1)
        return self.fc(self.dropout(x))
