import torch
import torch.nn as nn


class ATanSurrogate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem, alpha):
        ctx.save_for_backward(mem)
        ctx.alpha = alpha
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        grad = ctx.alpha / 2 / (1 + (torch.pi / 2 * ctx.alpha * mem) ** 2)
        return grad_output * grad, None


class Leaky(nn.Module):
    """Leaky integrate-and-fire neuron with hidden state held on the module (init_hidden style)."""

    def __init__(self, beta, threshold=1.0, alpha=2.0, output=False):
        super().__init__()
        self.beta = beta
        self.threshold = threshold
        self.alpha = alpha
        self.output = output
        self.mem = None

    def reset_hidden(self):
        self.mem = None

    def forward(self, x):
        if self.mem is None or self.mem.shape != x.shape:
            self.mem = torch.zeros_like(x)
        self.mem = self.beta * self.mem + x
        spk = ATanSurrogate.apply(self.mem - self.threshold, self.alpha)
        self.mem = self.mem - spk * self.threshold
        if self.output:
            return spk, self.mem
        return spk


def reset(net):
    for module in net.modules():
        if isinstance(module, Leaky):
            module.reset_hidden()
