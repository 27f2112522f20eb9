import torch
import torch.nn as nn


class TextCNN(nn.Module):
    def __init__(self, vocab=200, dim=32, n_classes=4, kernel_sizes=(2, 3, 4), channels=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(dim, channels, k) for k in kernel_sizes)
        self.dropout = nn.Dropout(0.2)
        self.head = nn.Linear(channels * len(kernel_sizes), n_classes)

    def forward(self, tokens):
        x = self.embed(tokens).transpose(1, 2)
        feats = [torch.relu(conv(x)).amax(dim=-1) for conv in self.convs]
        h = torch.cat(feats, dim=1)
        return self.head(self.dropout(h))
