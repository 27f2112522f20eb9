import torch
import torch.nn as nn


class FeedForward(nn.Module):
    def __init__(self, hidden, inner):
        super().__init__()
        self.intermediate = nn.Linear(hidden, inner)
        self.output = nn.ModuleDict({"dense": nn.Linear(inner, hidden)})

    def forward(self, h):
        return h + self.output["dense"](torch.relu(self.intermediate(h)))


class TinyBert(nn.Module):
    def __init__(self, vocab=40, hidden=16, inner=32, n_layers=3):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, hidden)
        self.layer = nn.ModuleList([FeedForward(hidden, inner) for _ in range(n_layers)])
        self.lm_head = nn.Linear(hidden, vocab)

    def forward(self, ids):
        h = self.embeddings(ids)
        for blk in self.layer:
            h = blk(h)
        return self.lm_head(h)
