import torch
import torch.nn as nn
import torch.nn.functional as F

from data import PAD


class Seq2Seq(nn.Module):
    def __init__(self, vocab, d_model=32):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.encoder = nn.GRU(d_model, d_model, batch_first=True)
        self.decoder = nn.GRU(d_model, d_model, batch_first=True)
        self.proj = nn.Linear(d_model, vocab)

    def forward(self, x, y_in):
        _, h = self.encoder(self.src_emb(x))
        out, _ = self.decoder(self.tgt_emb(y_in), h)
        return self.proj(out)

    def nll(self, x, y):
        logits = self(x, y[:, :-1])
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), y[:, 1:].reshape(-1),
                               ignore_index=PAD)
