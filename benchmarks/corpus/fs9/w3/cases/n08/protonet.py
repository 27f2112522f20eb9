import torch
import torch.nn as nn
import torch.nn.functional as F

from functional import pairwise_sq_dist, swish


class Swish(nn.Module):
    def __init__(self, beta=1.0):
        super().__init__()
        self.beta = beta

    def forward(self, x):
        return swish(x, self.beta)


class Encoder(nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), Swish(), nn.Linear(hidden, hidden),
                                 Swish(beta=1.5), nn.Linear(hidden, out_dim))

    def forward(self, x):
        return self.net(x)


class PrototypicalNetwork(nn.Module):
    def __init__(self, in_dim, hidden=64, out_dim=32):
        super().__init__()
        self.encoder = Encoder(in_dim, hidden, out_dim)

    def forward(self, support, support_labels, query, n_way):
        emb_s = self.encoder(support)
        emb_q = self.encoder(query)
        one_hot = F.one_hot(support_labels, n_way).type_as(emb_s)
        protos = (one_hot.t() @ emb_s) / one_hot.sum(0).unsqueeze(1)
        return -pairwise_sq_dist(emb_q, protos)

    def loss(self, episode, n_way):
        logits = self(episode["support"], episode["support_labels"], episode["query"], n_way)
        loss = F.cross_entropy(logits, episode["query_labels"])
        acc = (logits.argmax(1) == episode["query_labels"]).float().mean()
        return loss, acc
