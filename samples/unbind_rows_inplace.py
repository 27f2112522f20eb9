"""Normalising rows in place while iterating over a tensor (iteration calls unbind)."""
import torch

features = torch.randn(4, 3, requires_grad=True)
hidden = features * 2
for row in hidden:
    row.sub_(row.mean())
hidden.sum().backward()
