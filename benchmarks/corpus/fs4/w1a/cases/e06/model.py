import math

import torch
import torch.nn as nn


class Conv(nn.Module):
    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Backbone(nn.Module):
    def __init__(self, width):
        super().__init__()
        w = width
        self.stem = Conv(3, w, 3, 2)
        self.p3 = nn.Sequential(Conv(w, 2 * w, 3, 2), Conv(2 * w, 2 * w, 3, 2))
        self.p4 = Conv(2 * w, 4 * w, 3, 2)
        self.p5 = Conv(4 * w, 8 * w, 3, 2)

    def forward(self, x):
        x = self.stem(x)
        p3 = self.p3(x)
        p4 = self.p4(p3)
        p5 = self.p5(p4)
        return [p3, p4, p5]


class Detect(nn.Module):
    def __init__(self, nc, anchors, ch):
        super().__init__()
        self.nc = nc
        self.no = nc + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.register_buffer("anchors", torch.tensor(anchors).float().view(self.nl, -1, 2))
        self.register_buffer("stride", torch.tensor([8.0, 16.0, 32.0]))
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)

    def forward(self, xs):
        out = []
        for i, x in enumerate(xs):
            x = self.m[i](x)
            bs, _, ny, nx = x.shape
            out.append(x.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous())
        return out


class Model(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = Backbone(cfg["width"])
        w = cfg["width"]
        self.head = Detect(cfg["nc"], cfg["anchors"], ch=(2 * w, 4 * w, 8 * w))
        if cfg.get("prior_bias", True):
            self._initialize_biases()

    def _initialize_biases(self, cf=None):
        m = self.head
        for mi, s in zip(m.m, m.stride):
            b = mi.bias.view(m.na, -1)
            b[:, 4] += math.log(8 / (640 / s) ** 2)
            b[:, 5:] += math.log(0.6 / (m.nc - 0.99)) if cf is None else torch.log(cf / cf.sum())
            mi.bias = nn.Parameter(b.view(-1), requires_grad=True)

    def forward(self, x):
        return self.head(self.backbone(x))
