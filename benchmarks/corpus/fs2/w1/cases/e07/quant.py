import torch
import torch.nn.functional as F

BLOCK = 64


def make_code():
    return torch.linspace(-1.0, 1.0, 256)


def quantize_blockwise(w, code):
    flat = w.reshape(-1)
    pad = (-flat.numel()) % BLOCK
    blocks = F.pad(flat, (0, pad)).view(-1, BLOCK)
    absmax = blocks.abs().amax(dim=1).clamp_min(1e-8)
    normed = blocks / absmax[:, None]
    idx = (normed[..., None] - code).abs().argmin(dim=-1).to(torch.uint8)
    return idx.view(-1)[: flat.numel()].view(w.shape), absmax


def dequantize_blockwise(w_q, absmax, code):
    flat = code[w_q.reshape(-1).long()]
    pad = (-flat.numel()) % BLOCK
    blocks = F.pad(flat, (0, pad)).view(-1, BLOCK) * absmax[:, None]
    return blocks.view(-1)[: w_q.numel()].view(w_q.shape)


class DequantizeAndLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weights_quantized, absmax, code, bias):
        weights_deq = dequantize_blockwise(weights_quantized, absmax, code)
        ctx.save_for_backward(input, weights_quantized, absmax, code)
        ctx._has_bias = bias is not None
        return F.linear(input, weights_deq, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weights_quantized, absmax, code = ctx.saved_tensors
        weights_deq = dequantize_blockwise(weights_quantized, absmax, code)
        grad_input = grad_output @ weights_deq
        grad_bias = grad_output.flatten(0, -2).sum(dim=0) if ctx._has_bias else None
        return grad_input, None, None, None, grad_bias
