from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor


class GRULayer(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.cell = nn.GRUCell(input_size, hidden_size)

    def forward(self, x: Tensor, h: Tensor):
        outputs = []
        for t in range(x.size(0)):
            h = self.cell(x[t], h)
            outputs.append(h)
        return torch.stack(outputs), h


class StackedGRU(nn.Module):
    """Unrolled multi-layer GRU built from GRUCells (exportable / quantization friendly)."""

    def __init__(self, input_size, hidden_size, num_layers=1, batch_first=False):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.batch_first = batch_first
        sizes = [input_size] + [hidden_size] * (num_layers - 1)
        self.layers = nn.ModuleList(GRULayer(s, hidden_size) for s in sizes)

    def forward(self, x: Tensor, hidden: Optional[Tensor] = None):
        if self.batch_first:
            x = x.transpose(0, 1)
        batch = x.size(1)
        if hidden is None:
            zeros = torch.zeros(1, batch, self.hidden_size, dtype=x.dtype, device=x.device)
            zeros.squeeze_(0)
            hx = [zeros for _ in range(self.num_layers)]
        else:
            hx = hidden.reshape(self.num_layers, 1, batch, self.hidden_size).unbind(0)
            hx = [hx[idx].squeeze_(0) for idx in range(self.num_layers)]

        h_out = []
        for idx, layer in enumerate(self.layers):
            x, h = layer(x, hx[idx])
            h_out.append(h)
        h_n = torch.stack(h_out)
        if self.batch_first:
            x = x.transpose(0, 1)
        return x, h_n
