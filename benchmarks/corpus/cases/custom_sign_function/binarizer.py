import torch
import torch.nn as nn
from torch.autograd import Function


class StochasticSign(Function):
    """Binarize to {-1, +1}; stochastic while training, straight-through gradient."""

    @staticmethod
    def forward(ctx, x, is_training=True):
        if is_training:
            noise = torch.empty_like(x).uniform_()
            out = torch.where((1 - x) / 2 <= noise, torch.ones_like(x), -torch.ones_like(x))
            return out
        return x.sign()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class Binarizer(nn.Module):
    def __init__(self, in_channels, bits):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, bits, kernel_size=1, bias=False)

    def forward(self, x):
        feat = torch.tanh(self.conv(x))
        return StochasticSign.apply(feat, self.training)
