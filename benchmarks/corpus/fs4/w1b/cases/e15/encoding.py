import math

import torch
import torch.nn as nn
from torch.autograd.function import once_differentiable


class _FrequencyEncodingFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, freqs):
        xf = x[..., None] * freqs
        ctx.save_for_backward(xf, freqs)
        return torch.cat([torch.sin(xf), torch.cos(xf)], dim=-1).flatten(-2)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        xf, freqs = ctx.saved_tensors
        g = grad_out.unflatten(-1, (xf.size(-2), -1))
        n = freqs.numel()
        g_sin, g_cos = g[..., :n], g[..., n:]
        grad_x = ((g_sin * torch.cos(xf) - g_cos * torch.sin(xf)) * freqs).sum(-1)
        return grad_x, None


class FrequencyEncoding(nn.Module):
    def __init__(self, n_input_dims, n_frequencies, fused=False):
        super().__init__()
        self.n_input_dims = n_input_dims
        self.fused = fused
        self.register_buffer("freqs", (2.0 ** torch.arange(n_frequencies)) * math.pi)
        self.n_output_dims = n_input_dims * 2 * n_frequencies

    def forward(self, x):
        if self.fused:
            return _FrequencyEncodingFn.apply(x, self.freqs)
        xf = x[..., None] * self.freqs
        return torch.cat([torch.sin(xf), torch.cos(xf)], dim=-1).flatten(-2)


class IdentityEncoding(nn.Module):
    def __init__(self, n_input_dims):
        super().__init__()
        self.n_output_dims = n_input_dims

    def forward(self, x):
        return x


def create_encoding(n_input_dims, config):
    otype = config["otype"]
    if otype == "Frequency":
        return FrequencyEncoding(n_input_dims, config["n_frequencies"], fused=config.get("fused", False))
    if otype == "Identity":
        return IdentityEncoding(n_input_dims)
    raise ValueError(otype)
