import torch
from torch.autograd import Function


class ReverseLayerF(Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        output = grad_output.neg() * ctx.alpha
        return output, None


class GradientReversal(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = 0.0

    def forward(self, x):
        return ReverseLayerF.apply(x, self.alpha)
