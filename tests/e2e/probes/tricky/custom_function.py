"""Custom autograd Functions: save_for_backward, mark_dirty, mark_non_differentiable, once_differentiable."""
import torch
from torch.autograd.function import once_differentiable


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class AddOneInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


class SortWithIndex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, index = x.sort()
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(index)
        return values, index

    @staticmethod
    def backward(ctx, grad_values, grad_index):
        (index,) = ctx.saved_tensors
        out = torch.zeros_like(grad_values)
        out[index] = grad_values
        return out


torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
y = Square.apply(x)
z = AddOneInPlace.apply(y * 1.0)
values, index = SortWithIndex.apply(z)
(values * torch.arange(5.0)).sum().backward()
print(x.grad, index)
