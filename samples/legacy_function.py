"""Pre-1.3 autograd.Function code: an instance called directly."""
import torch


class Square(torch.autograd.Function):
    def forward(self, x):
        return x * x

    def backward(self, grad):
        return 2 * grad


x = torch.randn(3, requires_grad=True)
y = Square()(x)
