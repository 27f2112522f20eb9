"""`y += 1` on the output of exp(), which exp saved to compute its own gradient."""
import torch

x = torch.randn(3, requires_grad=True)
y = x.exp()
y += 1
y.sum().backward()
