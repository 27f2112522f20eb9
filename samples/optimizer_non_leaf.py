"""A weight scaled after requires_grad=True is no longer a leaf; the optimizer refuses it."""
import torch

w = torch.randn(10, 5, requires_grad=True) * 0.01
b = torch.zeros(5, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.1)
