"""A gradient hook that returns a reduced gradient instead of one of the same shape."""
import torch


def clip_hook(grad):
    return grad.clamp(-1, 1).mean(dim=0)  # wrong: drops the batch dimension


w = torch.randn(4, 3, requires_grad=True)
h = w * 2
h.register_hook(clip_hook)
h.sum().backward()
