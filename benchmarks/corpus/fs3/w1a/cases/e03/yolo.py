"""Single-stage detector assembled from a layer table."""
import math

import torch
import torch.nn as nn

from common import Conv, C3


class Detect(nn.Module):
    def __init__(self, nc, anchors, ch):
        super().__init__()
        self.nc = nc
        self.no = nc + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.register_buffer("anchors", torch.tensor(anchors).float().view(self.nl, -1, 2))
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)
        self.stride = None

    def forward(self, xs):
        out = []
        for i in range(self.nl):
            x = self.m[i](xs[i])
            bs, _, ny, nx = x.shape
            out.append(x.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous())
        return out


def parse_model(cfg, ch):
    layers, save, channels = [], [], [ch]
    for i, (f, n, m, args) in enumerate(cfg["backbone"] + cfg["head"]):
        m = {"Conv": Conv, "C3": C3, "Detect": Detect}[m]
        if m is Detect:
            c_in = [channels[x + 1] for x in f]
            module = Detect(cfg["nc"], cfg["anchors"], c_in)
        else:
            c1, c2 = channels[f + 1 if f >= 0 else -1], int(args[0] * cfg["width_multiple"])
            if m is C3:
                module = C3(c1, c2, max(round(n * cfg["depth_multiple"]), 1))
            else:
                module = Conv(c1, c2, *args[1:])
            channels.append(c2)
        module.i, module.f = i, f
        save.extend(x for x in ([f] if isinstance(f, int) else f) if x != -1)
        layers.append(module)
    return nn.Sequential(*layers), sorted(save)


class Model(nn.Module):
    def __init__(self, cfg, ch=3):
        super().__init__()
        self.cfg = cfg
        self.model, self.save = parse_model(cfg, ch)
        m = self.model[-1]
        if isinstance(m, Detect):
            s = 128
            m.stride = torch.tensor([s / x.shape[-2] for x in self.forward(torch.zeros(1, ch, s, s))])
            m.anchors /= m.stride.view(-1, 1, 1)
            self.stride = m.stride
            self._initialize_biases()

    def forward(self, x):
        y = []
        for m in self.model:
            if m.f != -1:
                x = y[m.f] if isinstance(m.f, int) else [y[j] for j in m.f]
            x = m(x)
            y.append(x if m.i in self.save else None)
        return x

    def _initialize_biases(self, cf=None):
        m = self.model[-1]
        for mi, s in zip(m.m, m.stride):
            b = mi.bias.view(m.na, -1)
            b[:, 4] += math.log(8 / (640 / s) ** 2)
            b[:, 5:] += math.log(0.6 / (m.nc - 0.99)) if cf is None else torch.log(cf / cf.sum())
            mi.bias = nn.Parameter(b.view(-1), requires_grad=True)
