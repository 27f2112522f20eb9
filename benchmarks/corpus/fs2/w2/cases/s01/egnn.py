import torch
import torch.nn as nn


def fully_connected_edges(n_nodes, n_graphs):
    src, dst = [], []
    for g in range(n_graphs):
        offset = g * n_nodes
        for i in range(n_nodes):
            for j in range(n_nodes):
                if i != j:
                    src.append(offset + i)
                    dst.append(offset + j)
    return torch.tensor(src), torch.tensor(dst)


class EGNNConv(nn.Module):
    def __init__(self, in_size, hidden_size, out_size):
        super().__init__()
        self.edge_mlp = nn.Sequential(
            nn.Linear(2 * in_size + 1, hidden_size), nn.SiLU(),
            nn.Linear(hidden_size, hidden_size), nn.SiLU())
        self.coord_mlp = nn.Sequential(
            nn.Linear(hidden_size, hidden_size), nn.SiLU(),
            nn.Linear(hidden_size, 1, bias=False))
        self.node_mlp = nn.Sequential(
            nn.Linear(in_size + hidden_size, hidden_size), nn.SiLU(),
            nn.Linear(hidden_size, out_size))

    def forward(self, h, x, edges):
        src, dst = edges
        x_diff = x[src] - x[dst]
        radial = x_diff.square().sum(dim=1, keepdim=True)
        x_diff = x_diff / (radial.sqrt() + 1e-30)
        msg_h = self.edge_mlp(torch.cat([h[src], h[dst], radial], dim=-1))
        msg_x = self.coord_mlp(msg_h) * x_diff

        n = h.size(0)
        deg = torch.zeros(n, 1).index_add_(0, dst, torch.ones(dst.size(0), 1))
        x_neigh = torch.zeros(n, x.size(1)).index_add_(0, dst, msg_x) / deg
        h_neigh = torch.zeros(n, msg_h.size(1)).index_add_(0, dst, msg_h)
        h = self.node_mlp(torch.cat([h, h_neigh], dim=-1))
        return h, x + x_neigh


class ConformerGenerator(nn.Module):
    def __init__(self, n_atom_types, hidden, n_layers):
        super().__init__()
        self.embed = nn.Embedding(n_atom_types, hidden)
        self.layers = nn.ModuleList(
            [EGNNConv(hidden, hidden, hidden) for _ in range(n_layers)])
        self.energy_head = nn.Linear(hidden, 1)

    def forward(self, atom_types, coords, edges):
        h = self.embed(atom_types)
        x = coords
        for layer in self.layers:
            h, x = layer(h, x, edges)
        return self.energy_head(h), x
