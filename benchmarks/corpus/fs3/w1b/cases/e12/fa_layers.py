import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def linear_fa_backward_hook(module, grad_input, grad_output):
    idx = 1
    if grad_input[idx] is not None:
        grad_input_fa = grad_output[0].mm(module.weight_fa)
        return grad_input[:idx] + (grad_input_fa,) + grad_input[idx + 1:]


class LinearFA(nn.Linear):
    """Linear layer trained with feedback alignment: the error is sent back
    through a fixed random matrix instead of the transposed forward weights."""

    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        weight_fa = torch.empty(out_features, in_features)
        nn.init.kaiming_uniform_(weight_fa, a=math.sqrt(5))
        self.register_buffer("weight_fa", weight_fa)
        self.register_backward_hook(linear_fa_backward_hook)

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)
