from itertools import chain

import torch
from torch import nn


def split_bn_bias(layer_groups):
    split_groups = []
    for group in layer_groups:
        g1, g2 = [], []
        for m in group.modules():
            if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
                g2.extend(m.parameters(recurse=False))
            else:
                for name, p in m.named_parameters(recurse=False):
                    (g2 if name == "bias" else g1).append(p)
        split_groups += [g1, g2]
    return split_groups


class OptimWrapper:
    def __init__(self, opt, wd, true_wd=True, bn_wd=True):
        self.opt = opt
        self.true_wd, self.bn_wd = true_wd, bn_wd
        self._lr = [pg["lr"] for pg in self.opt.param_groups[::2]]
        self._wd = [wd] * len(self._lr)
        for pg in self.opt.param_groups:
            pg["weight_decay"] = 0.0 if true_wd else wd

    @classmethod
    def create(cls, opt_func, lr, layer_groups, wd, **kwargs):
        split_groups = split_bn_bias(layer_groups)
        opt = opt_func([{"params": p, "lr": lr} for p in split_groups])
        return cls(opt, wd, **kwargs)

    @property
    def lr(self):
        return self._lr[-1]

    @lr.setter
    def lr(self, val):
        self._lr = [val] * len(self._lr)
        for pg in self.opt.param_groups:
            pg["lr"] = val

    def step(self):
        if self.true_wd:
            for lr, wd, pg1, pg2 in zip(self._lr, self._wd, self.opt.param_groups[::2],
                                        self.opt.param_groups[1::2]):
                groups = [pg1, pg2] if self.bn_wd else [pg1]
                for p in chain.from_iterable(g["params"] for g in groups):
                    if p.requires_grad is False:
                        continue
                    p.data.mul_(1 - wd * lr)
        self.opt.step()

    def zero_grad(self):
        self.opt.zero_grad()
