"""autograd.grad for an input that reaches the output only through .detach()."""
import torch

weights = torch.randn(3, requires_grad=True)
bias = torch.randn(3, requires_grad=True)
out = (weights * 2 + bias.detach()).sum()
grads = torch.autograd.grad(out, [weights, bias])
