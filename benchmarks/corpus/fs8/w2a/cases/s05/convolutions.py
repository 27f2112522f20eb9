import math

import torch
import torch.nn.functional as F
from torch import nn

import impulse_responses


class GaborConstraint(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self._kernel_size = kernel_size

    def forward(self, kernel):
        mu_lower = 0.0
        mu_upper = math.pi
        sigma_lower = 4 * math.sqrt(2 * math.log(2)) / math.pi
        sigma_upper = self._kernel_size * math.sqrt(2 * math.log(2)) / math.pi
        with torch.no_grad():
            clipped_mu = torch.clamp(kernel[:, 0], mu_lower, mu_upper).unsqueeze(1)
            clipped_sigma = torch.clamp(kernel[:, 1], sigma_lower, sigma_upper).unsqueeze(1)
        return torch.cat([clipped_mu, clipped_sigma], dim=-1)


class GaborConv1D(nn.Module):
    def __init__(self, filters, kernel_size, strides, padding, kernel_initializer):
        super().__init__()
        self._filters = filters // 2
        self._kernel_size = kernel_size
        self._strides = strides
        self._padding = padding
        self._kernel = nn.Parameter(kernel_initializer(self._filters, kernel_size))
        self._kernel_constraint = GaborConstraint(self._kernel_size)

    def forward(self, x):
        kernel = self._kernel_constraint(self._kernel)
        real, imag = impulse_responses.gabor_filters(kernel, self._kernel_size)
        stacked = torch.stack([real, imag], dim=1).view(2 * self._filters, self._kernel_size)
        return F.conv1d(x, stacked.unsqueeze(1), stride=self._strides, padding=self._padding)
