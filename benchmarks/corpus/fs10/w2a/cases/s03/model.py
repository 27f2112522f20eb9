import torch
import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, dim, dropout=0.1):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * 2)
        self.fc2 = nn.Linear(dim * 2, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        h = self.fc2(self.drop(torch.relu(self.fc1(self.norm(x)))))
        return x + h


class TabularNet(nn.Module):
    def __init__(self, n_cont, cat_cardinalities, dim=32, num_layers=3, out_dim=1):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(c, 4) for c in cat_cardinalities])
        in_dim = n_cont + 4 * len(cat_cardinalities)
        self.input_proj = nn.Linear(in_dim, dim)
        self.blocks = self._make_layers(dim, num_layers)
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, out_dim))

    @staticmethod
    def _make_layers(dim, num_layers):
        layers = []
        for _ in range(num_layers):
            layers.append(ResidualBlock(dim))
        return layers

    def forward(self, x_cont, x_cat):
        embs = [emb(x_cat[:, i]) for i, emb in enumerate(self.embeddings)]
        x = self.input_proj(torch.cat([x_cont, *embs], dim=1))
        for block in self.blocks:
            x = block(x)
        return self.head(x).squeeze(-1)
