"""A hand-written memory-saving checkpoint, used only when the config asks for it: its backward
returns a gradient for the function it was given as well as for each input, one too many."""
import torch
from torch import nn

CONFIG = {"width": 8, "efficient": True}


class CheckpointFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, run_function, *args):
        ctx.run_function = run_function
        ctx.save_for_backward(*args)
        with torch.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = [x.detach().requires_grad_(True) for x in ctx.saved_tensors]
        with torch.enable_grad():
            outputs = ctx.run_function(*inputs)
        torch.autograd.backward(outputs, grads)
        return (None, None) + tuple(x.grad for x in inputs)


def checkpoint(function, *args):
    return CheckpointFunction.apply(function, *args)


class Block(nn.Module):
    def __init__(self, width, efficient=False):
        super().__init__()
        self.efficient = efficient
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        if self.efficient and x.requires_grad:
            return checkpoint(lambda t: torch.relu(self.fc(t)), x)
        return torch.relu(self.fc(x))


torch.manual_seed(0)
block = Block(CONFIG["width"], efficient=CONFIG["efficient"])
x = torch.randn(4, 8, requires_grad=True)
block(x).sum().backward()
