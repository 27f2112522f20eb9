import torch
import torch.nn.functional as F

from layers import EvolveGCNO


class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super().__init__()
        self.recurrent = EvolveGCNO(node_features)
        self.linear = torch.nn.Linear(node_features, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        h = F.relu(h)
        h = self.linear(h)
        return h
