import torch
import torch.nn.functional as F
from torch import nn

import impulse_responses
from convolutions import GaborConv1D


class GaussianLowpass(nn.Module):
    def __init__(self, in_channels, kernel_size, strides):
        super().__init__()
        self.kernel_size = kernel_size
        self.strides = strides
        self._kernel = nn.Parameter(torch.full((1, 1, in_channels, 1), 0.4))

    def forward(self, x):
        kernel = impulse_responses.gaussian_lowpass(self._kernel, self.kernel_size)
        kernel = kernel.squeeze(3).permute(2, 0, 1)
        return F.conv1d(x, kernel, stride=self.strides, groups=x.shape[1], padding=self.kernel_size // 2)


class Leaf(nn.Module):
    def __init__(self, n_filters=20, window_len=25.0, window_stride=10.0, sample_rate=16000):
        super().__init__()
        window_size = int(sample_rate * window_len // 1000 + 1)
        window_stride = int(sample_rate * window_stride // 1000)
        self._complex_conv = GaborConv1D(
            filters=2 * n_filters,
            kernel_size=window_size,
            strides=1,
            padding=window_size // 2,
            kernel_initializer=impulse_responses.mel_init,
        )
        self._pooling = GaussianLowpass(n_filters, window_size, window_stride)
        self._n_filters = n_filters

    def forward(self, x):
        outputs = self._complex_conv(x)
        outputs = outputs.view(outputs.shape[0], self._n_filters, 2, -1).pow(2).sum(2)
        outputs = self._pooling(outputs)
        return torch.log(outputs.clamp(min=1e-5))
