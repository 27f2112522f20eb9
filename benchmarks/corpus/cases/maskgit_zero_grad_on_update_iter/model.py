import torch
import torch.nn as nn


class MaskTransformer(nn.Module):
    """Bidirectional transformer that predicts the masked VQ tokens of an image."""

    def __init__(self, codebook_size=64, n_tokens=16, dim=32, depth=2):
        super().__init__()
        self.tok_emb = nn.Embedding(codebook_size + 1, dim)
        self.pos_emb = nn.Parameter(torch.zeros(1, n_tokens, dim))
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, dropout=0.0,
                                           batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, codebook_size + 1)

    def forward(self, masked_code):
        x = self.tok_emb(masked_code.flatten(1)) + self.pos_emb
        x = self.blocks(x)
        return self.head(self.norm(x))
