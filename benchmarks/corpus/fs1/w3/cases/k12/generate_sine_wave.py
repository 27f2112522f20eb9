import math

import torch


def make_waves(n=24, length=80, period=20.0, seed=2):
    g = torch.Generator().manual_seed(seed)
    shift = torch.randint(-4 * int(period), 4 * int(period), (n, 1), generator=g)
    t = torch.arange(length)[None, :] + shift
    return torch.sin(2 * math.pi * t.double() / period)
