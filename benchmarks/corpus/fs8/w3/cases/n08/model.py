import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=128):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class SeqClassifier(nn.Module):
    def __init__(self, n_features=8, d_model=32, nhead=4, layers=2, num_classes=5):
        super().__init__()
        self.inp = nn.Linear(n_features, d_model)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, num_classes)

    def forward(self, x, pad_mask=None):
        h = self.encoder(self.pos(self.inp(x)), src_key_padding_mask=pad_mask)
        h = self.norm(h)
        if pad_mask is not None:
            keep = (~pad_mask).unsqueeze(-1).to(h.dtype)
            h = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        else:
            h = h.mean(1)
        return self.head(h)
