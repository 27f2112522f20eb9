"""Seed note 5: a leaf changed under torch.no_grad() after pow() saved it.

no_grad keeps the change out of the graph, not out of the version check.
"""
import torch

x = torch.ones(1, 10, requires_grad=True)
y1 = x ** 2
with torch.no_grad():
    x += 1
    y2 = x ** 2

z = y1 ** 2 + y2 ** 2
z.sum().backward()
print(x.grad)
