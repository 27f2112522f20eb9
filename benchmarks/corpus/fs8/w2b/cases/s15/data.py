import torch
from torch.utils.data import DataLoader, TensorDataset


def make_graph(n_nodes=200, n_feats=16, n_classes=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n_nodes, n_feats, generator=g) * 3.0
    adj = (torch.rand(n_nodes, n_nodes, generator=g) < 0.05).float()
    adj = ((adj + adj.t()) > 0).float() + torch.eye(n_nodes)
    adj = adj / adj.sum(1, keepdim=True)
    y = torch.randint(0, n_classes, (n_nodes,), generator=g)
    return x, adj, y


def node_loader(n_nodes, batch_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    idx = torch.arange(n_nodes)
    return DataLoader(TensorDataset(idx), batch_size=batch_size, shuffle=True, generator=g)
