"""Mixed precision on CPU: torch.autocast("cpu", dtype=torch.bfloat16) around the forward of a
small nn.TransformerEncoder classifier (with a key padding mask); backward and the optimizer
step outside autocast, as the AMP recipe says."""

import torch
import torch.nn.functional as F
from torch import nn


class Encoder(nn.Module):
    def __init__(self, vocab=100, d_model=32, heads=2, layers=2, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, 16, d_model))
        layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=64, dropout=0.1, batch_first=True,
                                           norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d_model, classes)

    def forward(self, tokens):
        pad = tokens == 0
        h = self.encoder(self.embed(tokens) + self.pos[:, : tokens.shape[1]], src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).to(h.dtype)
        return self.head((h * keep).sum(1) / keep.sum(1))


torch.manual_seed(0)
model = Encoder()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
lengths = torch.tensor([16, 11, 8, 4])
tokens = torch.randint(1, 100, (4, 16)).masked_fill(torch.arange(16)[None, :] >= lengths[:, None], 0)
labels = torch.tensor([0, 1, 2, 0])

model.train()
for step in range(4):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(tokens)
        loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} logits {logits.dtype} loss {loss.item():.4f}")
