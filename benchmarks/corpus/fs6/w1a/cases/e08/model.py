import torch
import torch.nn as nn


class TextClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden, num_classes, padding_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=padding_idx)
        self.encoder = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.2)
        self.head = nn.Linear(2 * hidden, num_classes)

    def forward(self, ids):
        emb = self.dropout(self.embedding(ids))
        out, _ = self.encoder(emb)
        mask = (ids != 0).unsqueeze(-1).float()
        pooled = (out * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
        return self.head(pooled)


def load_pretrained_embeddings(model, vectors, freeze=True):
    with torch.no_grad():
        model.embedding.weight.copy_(vectors)
    model.embedding.weight.requires_grad = not freeze
