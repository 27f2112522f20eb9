"""A leaf used in a graph, then overwritten in place from a tensor that requires grad."""
import torch

x = torch.ones(3, requires_grad=True)
y = (x * 2).sum()
x.requires_grad_(False)
w = torch.ones(1, requires_grad=True)
x[0] = w
y.backward()
