"""A manual update that rebinds w: the new w is not a leaf, so its .grad is None next time."""
import torch

w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
for step in range(2):
    loss = (w * x).sum() ** 2
    loss.backward()
    w = w - 0.1 * w.grad
