import torch

from torchpkg import SCALE

x = torch.randn(3, requires_grad=True)
y = (x * SCALE).sigmoid()
y.add_(1)
y.sum().backward()
