import torch
import torch.nn as nn


ACTIVATIONS = {
    "relu": nn.ReLU,
    "tanh": nn.Tanh,
    "gelu": nn.GELU,
}


class PairEncoder(nn.Module):
    """Encodes premise/hypothesis feature vectors and classifies the pair."""

    def __init__(self, in_dim, hid_dim, n_classes, n_layers, act="relu", dropout=0.1):
        super().__init__()
        self.input_proj = nn.Linear(in_dim, hid_dim)
        self.hids = []
        for _ in range(n_layers):
            self.hids.append(nn.Linear(hid_dim, hid_dim))
        self.act = ACTIVATIONS[act]()
        self.drop = nn.Dropout(dropout)
        self.classifier = nn.Linear(4 * hid_dim, n_classes)

    def encode(self, x):
        h = self.act(self.input_proj(x))
        for layer in self.hids:
            h = self.drop(self.act(layer(h)))
        return h

    def forward(self, premise, hypothesis):
        u = self.encode(premise)
        v = self.encode(hypothesis)
        feats = torch.cat([u, v, (u - v).abs(), u * v], dim=-1)
        return self.classifier(feats)
