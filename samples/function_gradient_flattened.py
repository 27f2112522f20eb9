"""A custom linear Function works on 2-D rows in backward and returns the input's gradient in that
flattened shape: fine for (batch, features), rejected for (batch, tokens, features)."""
import torch
import torch.nn as nn


class RowLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return x @ weight.t()

    @staticmethod
    def backward(ctx, grad_out):
        x, weight = ctx.saved_tensors
        g2d = grad_out.reshape(-1, grad_out.shape[-1])
        grad_x = g2d @ weight
        grad_w = g2d.t() @ x.reshape(-1, x.shape[-1])
        return grad_x, grad_w


class TokenMixer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim, dim) * 0.1)

    def forward(self, x):
        return RowLinear.apply(x, self.weight)


torch.manual_seed(0)
layer = TokenMixer(8)
tokens = torch.randn(2, 5, 8, requires_grad=True)
layer(tokens).pow(2).mean().backward()
