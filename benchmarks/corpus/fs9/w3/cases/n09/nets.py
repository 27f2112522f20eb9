import torch.nn as nn


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU())


class SmallCNN(nn.Module):
    def __init__(self, widths, num_classes=10):
        super().__init__()
        self.stem = conv_bn(3, widths[0])
        self.layer1 = conv_bn(widths[0], widths[1], stride=2)
        self.layer2 = conv_bn(widths[1], widths[2], stride=2)
        self.layer3 = conv_bn(widths[2], widths[2])
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                  nn.Linear(widths[2], num_classes))

    def forward(self, x):
        x = self.stem(x)
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        return self.head(x)
