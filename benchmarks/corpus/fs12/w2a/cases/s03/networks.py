import torch
import torch.nn as nn


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 4, 2, 1), nn.BatchNorm2d(cout), nn.LeakyReLU(0.2))


def deconv_block(cin, cout):
    return nn.Sequential(nn.ConvTranspose2d(cin, cout, 4, 2, 1), nn.BatchNorm2d(cout), nn.ReLU())


class SkipGenerator(nn.Module):
    def __init__(self, nc=1, nf=16):
        super().__init__()
        self.e1 = conv_block(nc, nf)
        self.e2 = conv_block(nf, nf * 2)
        self.e3 = conv_block(nf * 2, nf * 4)
        self.d3 = deconv_block(nf * 4, nf * 2)
        self.d2 = deconv_block(nf * 4, nf)
        self.d1 = nn.Sequential(nn.ConvTranspose2d(nf * 2, nc, 4, 2, 1), nn.Tanh())

    def forward(self, x):
        h1 = self.e1(x)
        h2 = self.e2(h1)
        h3 = self.e3(h2)
        u3 = self.d3(h3)
        u2 = self.d2(torch.cat([u3, h2], 1))
        return self.d1(torch.cat([u2, h1], 1))


class Discriminator(nn.Module):
    def __init__(self, nc=1, nf=16):
        super().__init__()
        self.features = nn.Sequential(conv_block(nc, nf), conv_block(nf, nf * 2), conv_block(nf * 2, nf * 4))
        self.classifier = nn.Sequential(nn.Conv2d(nf * 4, 1, 4, 1, 0), nn.Sigmoid())

    def forward(self, x):
        feat = self.features(x)
        pred = self.classifier(feat).view(-1)
        return pred, feat
