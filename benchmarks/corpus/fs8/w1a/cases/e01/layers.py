from functools import partial

import torch
from torch import nn


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


ACTIVATIONS = {
    "swish": Swish,
    "relu": partial(nn.ReLU, inplace=True),
    "relu6": partial(nn.ReLU6, inplace=True),
    "identity": nn.Identity,
}


def get_act(name):
    return ACTIVATIONS[name]()


class SeparableConvBlock(nn.Module):
    def __init__(self, channels, act="swish"):
        super().__init__()
        self.depthwise = nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False)
        self.pointwise = nn.Conv2d(channels, channels, 1)
        self.bn = nn.BatchNorm2d(channels, momentum=0.01, eps=1e-3)
        self.act = get_act(act)

    def forward(self, x):
        return self.act(self.bn(self.pointwise(self.depthwise(x))))


class FastFusion(nn.Module):
    def __init__(self, num_inputs, channels, weight_act="relu", conv_act="swish", eps=1e-4):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(num_inputs, dtype=torch.float32))
        self.weight_act = get_act(weight_act)
        self.conv = SeparableConvBlock(channels, conv_act)

    def forward(self, inputs):
        weight = self.weight_act(self.weight)
        weight = weight / (torch.sum(weight, dim=0) + self.eps)
        fused = sum(weight[i] * x for i, x in enumerate(inputs))
        return self.conv(fused)
