"""Imports torch only inside a function, after printing; then hits the in-place error."""
import sys

print("before torch:", "torch" in sys.modules)


def train():
    import torch

    print(type(torch.__loader__).__name__, type(torch.__spec__.loader).__name__)
    x = torch.randn(3, requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    y.sum().backward()


train()
