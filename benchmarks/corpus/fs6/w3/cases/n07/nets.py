import torch.nn as nn


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class ConvNet(nn.Module):
    def __init__(self, widths, num_classes=10):
        super().__init__()
        w1, w2, w3 = widths
        self.stage1 = conv_bn(3, w1)
        self.stage2 = conv_bn(w1, w2, stride=2)
        self.stage3 = conv_bn(w2, w3, stride=2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(w3, num_classes)

    def forward(self, x):
        x = self.stage3(self.stage2(self.stage1(x)))
        return self.fc(self.pool(x).flatten(1))


def teacher_net():
    return ConvNet((16, 32, 64))


def student_net():
    return ConvNet((8, 16, 32))
