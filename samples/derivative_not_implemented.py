"""Differentiating igamma with respect to its first argument, which has no derivative."""
import torch

shape = torch.rand(3, requires_grad=True) + 0.5
x = torch.rand(3)
p = torch.special.gammainc(shape, x)
p.sum().backward()
