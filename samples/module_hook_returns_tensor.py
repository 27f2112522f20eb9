"""A gradient-scaling helper registers a full backward hook on a block and returns the scaled
gradient tensor itself; a module backward hook must return a tuple, one gradient per input."""
import torch
from torch import nn


def scale_input_grads(module, factor):
    def hook(mod, grad_input, grad_output):
        return grad_input[0] * factor

    return module.register_full_backward_hook(hook)


torch.manual_seed(0)
block = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
head = nn.Linear(4, 1)
scale_input_grads(block, 0.5)
x = torch.randn(3, 4, requires_grad=True)
head(block(x)).sum().backward()
