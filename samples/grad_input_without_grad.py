"""autograd.grad asked for the gradient of an input that does not require grad."""
import torch

x = torch.randn(3, requires_grad=True)
scale = torch.randn(3)
out = (x * scale).sum()
grads = torch.autograd.grad(out, [x, scale])
