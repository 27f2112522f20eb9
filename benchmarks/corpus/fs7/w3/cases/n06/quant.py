import torch
from torch import nn


class FakeQuantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, bits):
        qmax = 2 ** (bits - 1) - 1
        q = x / scale
        mask = (q >= -qmax - 1) & (q <= qmax)
        ctx.save_for_backward(mask)
        q.round_().clamp_(-qmax - 1, qmax)
        return q.mul_(scale)

    @staticmethod
    def backward(ctx, grad_out):
        (mask,) = ctx.saved_tensors
        return grad_out * mask, None, None


class QuantLinear(nn.Linear):
    def __init__(self, in_features, out_features, bits=8, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.bits = bits
        self.register_buffer("act_scale", torch.tensor(1.0))

    def weight_scale(self):
        qmax = 2 ** (self.bits - 1) - 1
        return self.weight.detach().abs().max().clamp(min=1e-8) / qmax

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                qmax = 2 ** (self.bits - 1) - 1
                self.act_scale.mul_(0.9).add_(0.1 * x.abs().max() / qmax)
        xq = FakeQuantize.apply(x, self.act_scale, self.bits)
        wq = FakeQuantize.apply(self.weight, self.weight_scale(), self.bits)
        return nn.functional.linear(xq, wq, self.bias)
