"""A layer caches a kernel computed from a learnable parameter, keyed on the input length. The
second step reuses the cached kernel, whose graph the first backward freed. Detaching it would
stop `log_scale` from training: the cache hit is the line to change (recompute each forward)."""
import torch
import torch.nn as nn


class SmoothingLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_scale = nn.Parameter(torch.zeros(()))
        self._length = None
        self._kernel = None

    def kernel(self, length):
        if self._length == length:
            return self._kernel
        positions = torch.arange(length, dtype=torch.float32)
        kernel = torch.exp(-positions ** 2 * self.log_scale.exp())
        self._length = length
        self._kernel = kernel
        return kernel

    def forward(self, x):
        return x * self.kernel(x.shape[-1])


torch.manual_seed(0)
layer = SmoothingLayer()
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
for step in range(3):
    loss = layer(torch.randn(4, 16)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
