"""A gradient penalty taken from autograd.grad without create_graph=True."""
import torch

x = torch.randn(5, requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x)
penalty = (g ** 2).sum()
penalty.backward()
