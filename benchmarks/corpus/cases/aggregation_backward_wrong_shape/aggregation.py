import torch
import torch.nn.functional as F
from torch.autograd import Function


class AggregationZeropad(Function):
    """out[n, c, p] = sum_j weight[n, j, p] * patch_j(x)[n, c, p] over a k x k window."""

    @staticmethod
    def forward(ctx, input, weight, kernel_size, padding):
        n, c, h, w = input.shape
        cols = F.unfold(input, kernel_size, padding=padding).view(n, c, kernel_size ** 2, h * w)
        ctx.save_for_backward(cols, weight)
        ctx.kernel_size, ctx.padding, ctx.hw = kernel_size, padding, (h, w)
        return (cols * weight.unsqueeze(1)).sum(2).view(n, c, h, w)

    @staticmethod
    def backward(ctx, grad_output):
        cols, weight = ctx.saved_tensors
        k, pad, (h, w) = ctx.kernel_size, ctx.padding, ctx.hw
        n, c = grad_output.shape[:2]
        g = grad_output.reshape(n, c, 1, h * w)
        grad_weight = (g * cols).sum(1)
        grad_cols = (g * weight.unsqueeze(1)).view(n, c * k * k, h * w)
        grad_padded = F.fold(grad_cols, (h + 2 * pad, w + 2 * pad), k)
        return grad_padded[:, :, pad:pad + w, pad:pad + w], grad_weight, None, None


def aggregation(input, weight, kernel_size=3, padding=1):
    return AggregationZeropad.apply(input, weight, kernel_size, padding)
