import torch
import torch.nn as nn


class TextEncoder(nn.Module):
    def __init__(self, vocab_size, dim=48, num_labels=3):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * dim, dim)
        self.classifier = nn.Linear(dim, num_labels)
        self.aux_head = nn.Linear(dim, vocab_size)
        self.aux_grad_scale = 1.0

    def resize_token_embeddings(self, new_size):
        old = self.embeddings
        new = nn.Embedding(new_size, old.embedding_dim)
        with torch.no_grad():
            new.weight[: old.num_embeddings] = old.weight
            new.weight[old.num_embeddings:].normal_(0, old.weight.std().item())
        self.embeddings = new
        aux = nn.Linear(self.aux_head.in_features, new_size)
        with torch.no_grad():
            aux.weight[: self.aux_head.out_features] = self.aux_head.weight
            aux.bias[: self.aux_head.out_features] = self.aux_head.bias
        self.aux_head = aux
        return new

    def forward(self, input_ids):
        h, _ = self.encoder(self.embeddings(input_ids))
        h = torch.tanh(self.proj(h))
        pooled = h.mean(1)
        aux_in = h
        if self.training and aux_in.requires_grad and self.aux_grad_scale != 1.0:
            scale = self.aux_grad_scale
            aux_in = h * 1.0
            aux_in.register_hook(lambda g: g * scale)
        return self.classifier(pooled), self.aux_head(aux_in)
