import torch
import torch.nn as nn


class ResponseSelector(nn.Module):
    def __init__(self, vocab, dim=64, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, 64, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.mlm_head = nn.Linear(dim, vocab)
        self.cls_head = nn.Linear(dim, 2)

    def forward(self, ids):
        h = self.embed(ids) + self.pos[:, : ids.shape[1]]
        h = self.encoder(h)
        return self.mlm_head(h), self.cls_head(h[:, 0])
