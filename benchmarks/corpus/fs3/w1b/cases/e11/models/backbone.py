import torch.nn as nn


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(),
    )


class SmallVGG(nn.Module):
    def __init__(self, num_classes=2, width=16):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, width),
            conv_bn(width, width * 2, stride=2),
            conv_bn(width * 2, width * 4, stride=2),
            conv_bn(width * 4, width * 4),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(width * 4, num_classes)

    def forward(self, x):
        x = self.features(x)
        x = self.pool(x).flatten(1)
        return self.classifier(x)
