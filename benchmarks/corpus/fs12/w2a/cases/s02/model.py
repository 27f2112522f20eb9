import torch
import torch.nn as nn


class MaskedMeanPool(nn.Module):
    def forward(self, hidden, mask):
        m = mask.unsqueeze(-1).to(hidden.dtype)
        summed = (hidden * m).sum(1)
        counts = m.sum(1)
        pooled = summed / counts
        return torch.where(counts > 0, pooled, torch.zeros_like(pooled))


class ReviewClassifier(nn.Module):
    def __init__(self, vocab, dim, n_classes):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))
        self.pool = MaskedMeanPool()
        self.head = nn.Linear(dim, n_classes)

    def forward(self, tokens, mask):
        h = self.encoder(self.embed(tokens))
        return self.head(self.pool(h, mask))
