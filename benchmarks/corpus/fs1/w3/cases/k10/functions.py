import torch
from torch.autograd.function import once_differentiable


class InPlaceLeakyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, negative_slope):
        x.mul_(torch.where(x < 0, negative_slope, 1.0))
        ctx.negative_slope = negative_slope
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        scale = torch.where(y >= 0, torch.ones_like(y), torch.full_like(y, ctx.negative_slope))
        return grad_output * scale, None


def leaky_relu_(x, negative_slope=0.01):
    return InPlaceLeakyReLU.apply(x, negative_slope)
