import torch
import torch.nn as nn


class ConvBlock(nn.Sequential):
    def __init__(self, in_ch, out_ch, ker=3, pad=1):
        super().__init__()
        self.add_module("conv", nn.Conv2d(in_ch, out_ch, ker, 1, pad))
        self.add_module("norm", nn.BatchNorm2d(out_ch))
        self.add_module("act", nn.LeakyReLU(0.2))


class Generator(nn.Module):
    def __init__(self, opt):
        super().__init__()
        n = opt["nfc"]
        self.head = ConvBlock(opt["nc"], n)
        self.body = nn.Sequential(*[ConvBlock(n, n) for _ in range(opt["num_layer"] - 2)])
        self.tail = nn.Sequential(nn.Conv2d(n, opt["nc"], 3, 1, 1), nn.Tanh())

    def forward(self, noise, prev):
        x = self.head(noise)
        x = self.body(x)
        x = self.tail(x)
        return x + prev


class Discriminator(nn.Module):
    def __init__(self, opt):
        super().__init__()
        n = opt["nfc"]
        self.head = ConvBlock(opt["nc"], n)
        self.body = nn.Sequential(*[ConvBlock(n, n) for _ in range(opt["num_layer"] - 2)])
        self.tail = nn.Conv2d(n, 1, 3, 1, 1)

    def forward(self, x):
        return self.tail(self.body(self.head(x)))


def weights_init(m):
    name = m.__class__.__name__
    if name.find("Conv2d") != -1:
        m.weight.data.normal_(0.0, 0.02)
    elif name.find("BatchNorm") != -1:
        m.weight.data.normal_(1.0, 0.02)
        m.bias.data.fill_(0)
