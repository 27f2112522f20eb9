import math

import torch
from torch.autograd import Function


class GradReverse(Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd, None


class LogCosh(Function):
    """log(cosh(x)) computed as |x| + log1p(exp(-2|x|)) - log 2."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x.abs()
        out = torch.exp(-2.0 * a)
        out.log1p_()
        out.add_(a).sub_(math.log(2.0))
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.tanh(x)


def grad_reverse(x, lambd=1.0):
    return GradReverse.apply(x, lambd)


def log_cosh_loss(pred, target):
    return LogCosh.apply(pred - target).mean()
