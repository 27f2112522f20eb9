"""Seed note 1: `a[:] = 0` on a leaf that requires grad (a view of the leaf, written in place)."""
import torch

a = torch.tensor([10.0, 5.0, 2.0, 3.0], requires_grad=True)
print(a, a.is_leaf)
a[:] = 0
a.add_(10.0)
loss = (a * a).mean()
loss.backward()
