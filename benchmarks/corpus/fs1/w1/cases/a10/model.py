import torch
import torch.nn as nn


class ConvSubsampler(nn.Module):
    def __init__(self, feat_dim, dim):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(feat_dim, dim, 3, stride=2, padding=1), nn.GELU(),
                                  nn.Conv1d(dim, dim, 3, padding=1), nn.GELU())

    def forward(self, feats):
        return self.conv(feats.transpose(1, 2)).transpose(1, 2)


class HybridASR(nn.Module):
    """Shared encoder with a CTC head and a frame-level (alignment) classification head."""

    def __init__(self, feat_dim=20, dim=48, vocab_size=16, num_senones=24):
        super().__init__()
        self.subsample = ConvSubsampler(feat_dim, dim)
        self.encoder = nn.GRU(dim, dim, num_layers=2, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * dim, dim)
        self.ctc_head = nn.Linear(dim, vocab_size)
        self.frame_head = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, num_senones))

    def encode(self, feats):
        enc, _ = self.encoder(self.subsample(feats))
        return self.proj(enc)

    def forward(self, feats):
        enc = self.encode(feats)
        return enc, self.ctc_head(enc).log_softmax(-1), self.frame_head(enc)
