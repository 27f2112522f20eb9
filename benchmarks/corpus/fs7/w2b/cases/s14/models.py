import torch
import torch.nn as nn


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class PoseNet(nn.Module):
    def __init__(self, heads, head_conv=32):
        super().__init__()
        self.heads = heads
        self.base = nn.Sequential(conv_bn(3, 16, 2), conv_bn(16, 32, 2), conv_bn(32, 32))
        for head, classes in heads.items():
            fc = nn.Sequential(nn.Conv2d(32, head_conv, 3, padding=1), nn.ReLU(inplace=True),
                               nn.Conv2d(head_conv, classes, 1))
            if "hm" in head:
                fc[-1].bias.data.fill_(-2.19)
            self.__setattr__(head, fc)

    def forward(self, x):
        y = self.base(x)
        return [{head: self.__getattr__(head)(y) for head in self.heads}]


def create_model(heads, head_conv):
    return PoseNet(heads, head_conv)
