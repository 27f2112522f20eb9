import torch.nn as nn


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class SmallConvNet(nn.Module):
    def __init__(self, num_classes=10, width=16):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, width),
            conv_bn(width, width * 2, stride=2),
            conv_bn(width * 2, width * 4, stride=2),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(width * 4, num_classes)

    def forward(self, x):
        x = self.pool(self.features(x)).flatten(1)
        return self.fc(x)
