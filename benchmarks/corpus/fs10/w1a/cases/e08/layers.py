import torch
import torch.nn as nn


def normalized_adjacency(edge_index, edge_weight, num_nodes):
    adj = torch.zeros(num_nodes, num_nodes)
    adj[edge_index[0], edge_index[1]] = edge_weight
    adj = adj + torch.eye(num_nodes)
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class TopKPooling(nn.Module):
    def __init__(self, in_channels, k):
        super().__init__()
        self.k = k
        self.scorer = nn.Parameter(torch.randn(in_channels) / in_channels ** 0.5)

    def forward(self, x):
        scores = x @ self.scorer / self.scorer.norm()
        top = scores.topk(self.k).indices
        return x[top] * torch.tanh(scores[top]).unsqueeze(-1)


class EvolveGCNH(nn.Module):
    def __init__(self, num_of_nodes, in_channels):
        super().__init__()
        self.num_of_nodes = num_of_nodes
        self.in_channels = in_channels
        self.initial_weight = nn.Parameter(torch.empty(1, in_channels, in_channels))
        nn.init.xavier_uniform_(self.initial_weight)
        self.pooling_layer = TopKPooling(in_channels, in_channels)
        self.recurrent_layer = nn.GRU(in_channels, in_channels, num_layers=1)
        self.weight = None

    def reset_parameters(self):
        self.weight = None

    def forward(self, X, edge_index, edge_weight=None):
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1))
        X_tilde = self.pooling_layer(X)[None, :, :]
        if self.weight is None:
            _, self.weight = self.recurrent_layer(X_tilde, self.initial_weight)
        else:
            _, self.weight = self.recurrent_layer(X_tilde, self.weight)
        adj = normalized_adjacency(edge_index, edge_weight, X.size(0))
        return adj @ (X @ self.weight.squeeze(0))
