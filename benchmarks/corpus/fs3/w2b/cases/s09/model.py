import torch
import torch.nn as nn
import torch.nn.functional as F


def conv(in_ch, out_ch, k=3, bias=True):
    return nn.Conv2d(in_ch, out_ch, k, padding=k // 2, bias=bias)


class CAB(nn.Module):
    def __init__(self, ch, reduction=4):
        super().__init__()
        self.body = nn.Sequential(conv(ch, ch), nn.PReLU(), conv(ch, ch))
        self.ca = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(ch, ch // reduction, 1),
            nn.ReLU(inplace=True),
            nn.Conv2d(ch // reduction, ch, 1),
            nn.Sigmoid(),
        )

    def forward(self, x):
        res = self.body(x)
        return x + res * self.ca(res)


class GradientDescentModule(nn.Module):
    """One unfolding step: x_k = x_{k-1} - rho * A^T (A x_{k-1} - y)."""

    def __init__(self):
        super().__init__()
        self.phi = nn.Sequential(conv(3, 16), nn.PReLU(), conv(16, 3))
        self.phit = nn.Sequential(conv(3, 16), nn.PReLU(), conv(16, 3))
        self.rho = nn.Parameter(torch.tensor(0.5))

    def forward(self, x, y):
        return x - self.rho * self.phit(self.phi(x) - y)


class ProximalModule(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.head = conv(3, ch)
        self.body = nn.Sequential(CAB(ch), CAB(ch))
        self.tail = conv(ch, 3)

    def forward(self, x):
        return x + self.tail(self.body(self.head(x)))


class UnfoldingNet(nn.Module):
    def __init__(self, stages=4):
        super().__init__()
        self.gdm = nn.ModuleList([GradientDescentModule() for _ in range(stages)])
        self.pmm = nn.ModuleList([ProximalModule() for _ in range(stages)])

    def forward(self, y):
        x = y
        outputs = []
        for gdm, pmm in zip(self.gdm, self.pmm):
            x = pmm(gdm(x, y))
            outputs.append(x)
        return outputs[::-1]
