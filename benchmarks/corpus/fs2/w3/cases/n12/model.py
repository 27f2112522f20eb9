import torch.nn as nn


def conv_bn(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class SmallConvNet(nn.Module):
    def __init__(self, num_classes, width=16, drop=0.25):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, width), nn.MaxPool2d(2),
            conv_bn(width, 2 * width), nn.MaxPool2d(2),
            conv_bn(2 * width, 2 * width), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(drop), nn.Linear(2 * width, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x))
