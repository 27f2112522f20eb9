import torch.nn as nn

NORM_LAYERS = {
    "batch": lambda c: nn.BatchNorm2d(c),
    "group": lambda c: nn.GroupNorm(min(8, c), c),
    "none": lambda c: nn.Identity(),
}


class ConvBlock(nn.Module):
    def __init__(self, cin, cout, norm, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.norm = NORM_LAYERS[norm](cout)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class SmallConvNet(nn.Module):
    def __init__(self, num_classes=10, width=16, norm="batch"):
        super().__init__()
        self.features = nn.Sequential(
            ConvBlock(3, width, norm),
            ConvBlock(width, 2 * width, norm, stride=2),
            ConvBlock(2 * width, 2 * width, norm, stride=2),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(2 * width, num_classes)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))
