import math

import torch
from torch import nn


class Distance(nn.Module):
    def __init__(self, cutoff_upper, loop=False):
        super().__init__()
        self.cutoff_upper = cutoff_upper
        self.loop = loop

    def forward(self, pos, batch):
        same = batch.unsqueeze(0) == batch.unsqueeze(1)
        if not self.loop:
            same = same & ~torch.eye(pos.size(0), dtype=torch.bool)
        edge_index = same.nonzero().t()
        edge_vec = pos[edge_index[0]] - pos[edge_index[1]]
        edge_weight = torch.sqrt((edge_vec ** 2).sum(dim=-1))
        keep = edge_weight <= self.cutoff_upper
        return edge_index[:, keep], edge_weight[keep]


class GaussianSmearing(nn.Module):
    def __init__(self, cutoff_upper, num_rbf):
        super().__init__()
        offset = torch.linspace(0.0, cutoff_upper, num_rbf)
        self.coeff = -0.5 / (offset[1] - offset[0]) ** 2
        self.register_buffer("offset", offset)

    def forward(self, dist):
        return torch.exp(self.coeff * (dist.unsqueeze(-1) - self.offset) ** 2)


class CosineCutoff(nn.Module):
    def __init__(self, cutoff_upper):
        super().__init__()
        self.cutoff_upper = cutoff_upper

    def forward(self, dist):
        return 0.5 * (torch.cos(dist * math.pi / self.cutoff_upper) + 1.0)


class GraphNetwork(nn.Module):
    def __init__(self, embedding_dimension, num_rbf, cutoff_upper, loop, max_z=10):
        super().__init__()
        self.embedding = nn.Embedding(max_z, embedding_dimension)
        self.distance = Distance(cutoff_upper, loop=loop)
        self.distance_expansion = GaussianSmearing(cutoff_upper, num_rbf)
        self.cutoff = CosineCutoff(cutoff_upper)
        self.filter = nn.Sequential(nn.Linear(num_rbf, embedding_dimension), nn.SiLU(),
                                    nn.Linear(embedding_dimension, embedding_dimension))
        self.update = nn.Sequential(nn.Linear(embedding_dimension, embedding_dimension), nn.SiLU())

    def forward(self, z, pos, batch):
        x = self.embedding(z)
        edge_index, edge_weight = self.distance(pos, batch)
        edge_attr = self.distance_expansion(edge_weight)
        w = self.filter(edge_attr) * self.cutoff(edge_weight).unsqueeze(-1)
        msg = x[edge_index[1]] * w
        agg = torch.zeros_like(x).index_add_(0, edge_index[0], msg)
        return x + self.update(agg)


class TorchMD_Net(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        dim = cfg["embedding_dimension"]
        self.derivative = cfg["derivative"]
        self.representation_model = GraphNetwork(dim, cfg["num_rbf"], cfg["cutoff_upper"],
                                                 cfg["loop"])
        self.output_model = nn.Sequential(nn.Linear(dim, dim // 2), nn.SiLU(),
                                          nn.Linear(dim // 2, 1))

    def forward(self, z, pos, batch, num_graphs):
        if self.derivative:
            pos.requires_grad_(True)
        x = self.representation_model(z, pos, batch)
        x = self.output_model(x)
        out = torch.zeros(num_graphs, 1).index_add_(0, batch, x)
        if self.derivative:
            grad_outputs = [torch.ones_like(out)]
            dy = torch.autograd.grad([out], [pos], grad_outputs=grad_outputs,
                                     create_graph=True, retain_graph=True)[0]
            return out, -dy
        return out, None
