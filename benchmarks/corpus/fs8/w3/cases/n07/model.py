import torch
import torch.nn as nn


class TextEncoder(nn.Module):
    def __init__(self, vocab_size, emb_dim=32, hidden=48, num_classes=3, pad_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_idx)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, num_classes)

    def forward(self, ids, lengths):
        emb = self.embedding(ids)
        packed = nn.utils.rnn.pack_padded_sequence(emb, lengths, batch_first=True, enforce_sorted=False)
        _, h = self.rnn(packed)
        h = torch.cat([h[-2], h[-1]], dim=-1)
        return self.proj(h)

    def resize_token_embeddings(self, new_size):
        old = self.embedding
        new = nn.Embedding(new_size, old.embedding_dim, padding_idx=old.padding_idx)
        with torch.no_grad():
            new.weight[: old.num_embeddings] = old.weight
        self.embedding = new
        return old.num_embeddings
