import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class _Swish(Function):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return x * torch.sigmoid(beta * x)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        s = torch.sigmoid(ctx.beta * x)
        return grad_out * (s + ctx.beta * x * s * (1 - s)), None


class _PairwiseSqDist(Function):
    @staticmethod
    def forward(ctx, x, y):
        x2 = (x * x).sum(-1, keepdim=True)
        y2 = (y * y).sum(-1, keepdim=True).transpose(0, 1)
        d = torch.addmm(x2 + y2, x, y.transpose(0, 1), alpha=-2.0)
        ctx.save_for_backward(x, y)
        return d

    @staticmethod
    def backward(ctx, grad_d):
        x, y = ctx.saved_tensors
        grad_x = grad_y = None
        if ctx.needs_input_grad[0]:
            grad_x = 2.0 * (grad_d.sum(1, keepdim=True) * x - grad_d @ y)
        if ctx.needs_input_grad[1]:
            grad_y = 2.0 * (grad_d.sum(0).unsqueeze(1) * y - grad_d.transpose(0, 1) @ x)
        return grad_x, grad_y


def swish(x, beta=1.0):
    return _Swish.apply(x, beta)


def pairwise_sq_dist(x, y):
    return _PairwiseSqDist.apply(x, y)
