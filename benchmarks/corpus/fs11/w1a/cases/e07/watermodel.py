import torch
from torch import nn

from layers import SKHead


class TNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.head = SKHead(3, ch, 3, nn.Sigmoid())

    def forward(self, x):
        return self.head(x)


class ANet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.head = SKHead(3, ch, 3, nn.Sigmoid())

    def forward(self, x):
        a = self.head(x)
        return a.mean(dim=(2, 3), keepdim=True)


class WaterModel(nn.Module):
    def __init__(self, t_min=0.05):
        super().__init__()
        self.tnet = TNet()
        self.anet = ANet()
        self.t_min = t_min

    def forward(self, x):
        t = self.tnet(x)
        a = self.anet(x)
        return t, a


def restore(img, t, a, t_min):
    t = t.clamp(min=t_min)
    return (img - a) / t + a


def recompose(j, t, a):
    return j * t + a * (1 - t)
