import torch
import torch.nn as nn


class TokenTagger(nn.Module):
    def __init__(self, vocab=300, dim=48, num_tags=6, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.conv = nn.Conv1d(dim, dim, 3, padding=1)
        self.norm = nn.LayerNorm(dim)
        self.drop = nn.Dropout(0.1)
        self.out = nn.Linear(dim, num_tags)

    def forward(self, input_ids):
        h = self.embed(input_ids)
        h = h + torch.relu(self.conv(h.transpose(1, 2))).transpose(1, 2)
        return self.out(self.drop(self.norm(h)))
