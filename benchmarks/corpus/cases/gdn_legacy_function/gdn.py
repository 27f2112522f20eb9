import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function


class LowerBound(Function):
    def forward(self, inputs, bound):
        b = torch.ones_like(inputs) * bound
        self.save_for_backward(inputs, b)
        return torch.max(inputs, b)

    def backward(self, grad_output):
        inputs, b = self.saved_tensors
        pass_through = (inputs >= b) | (grad_output < 0)
        return pass_through.type(grad_output.dtype) * grad_output, None


class GDN(nn.Module):
    """Generalized divisive normalization (Balle et al.)."""

    def __init__(self, ch, beta_min=1e-6, gamma_init=0.1, reparam_offset=2 ** -18):
        super().__init__()
        self.pedestal = reparam_offset ** 2
        self.beta_bound = (beta_min + self.pedestal) ** 0.5
        self.gamma_bound = reparam_offset
        self.beta = nn.Parameter(torch.sqrt(torch.ones(ch) + self.pedestal))
        self.gamma = nn.Parameter(torch.sqrt(gamma_init * torch.eye(ch) + self.pedestal))

    def _bounded(self, param, bound):
        return LowerBound()(param, bound)

    def forward(self, x):
        ch = x.size(1)
        beta = self._bounded(self.beta, self.beta_bound) ** 2 - self.pedestal
        gamma = self._bounded(self.gamma, self.gamma_bound) ** 2 - self.pedestal
        norm = F.conv2d(x ** 2, gamma.view(ch, ch, 1, 1), beta)
        return x / torch.sqrt(norm)
