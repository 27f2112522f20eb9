import torch
import torch.nn as nn

from layers import AttentionPool, Bottleneck1d


class SignalClassifier(nn.Module):
    def __init__(self, in_ch=4, width=16, num_classes=5, extra_dim=3):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv1d(in_ch, width, 7, 2, 3, bias=False),
            nn.BatchNorm1d(width),
            nn.ReLU(inplace=True),
        )
        self.blocks = nn.Sequential(
            Bottleneck1d(width, width),
            Bottleneck1d(width * 2, width * 2, stride=2),
        )
        dim = width * 4
        self.pool = AttentionPool(dim)
        self.extra = nn.Linear(extra_dim, dim)
        self.head = nn.Sequential(nn.LayerNorm(2 * dim), nn.Linear(2 * dim, num_classes))

    def forward(self, signal, lengths, extra):
        h = self.blocks(self.stem(signal)).transpose(1, 2)
        t = h.size(1)
        steps = torch.arange(t)[None, :]
        scaled = torch.div(lengths * t + signal.size(-1) - 1, signal.size(-1), rounding_mode="floor")
        pad_mask = steps >= scaled[:, None]
        pooled = self.pool(h, pad_mask)
        feats = torch.zeros(signal.size(0), 2 * pooled.size(1))
        feats[:, : pooled.size(1)] = pooled
        feats[:, pooled.size(1):] = self.extra(extra)
        return self.head(feats)
