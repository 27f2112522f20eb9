"""A custom Function whose backward forgets the gradient for its second input."""
import torch


class ScaledAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + 2 * b

    @staticmethod
    def backward(ctx, grad):
        return grad  # should be: return grad, 2 * grad


a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
out = ScaledAdd.apply(a, b)
out.sum().backward()
