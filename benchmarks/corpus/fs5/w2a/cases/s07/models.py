import torch
import torch.nn as nn


class LinearNodeEmbedding(nn.Module):
    def __init__(self, num_elements, channels):
        super().__init__()
        self.linear = nn.Linear(num_elements, channels, bias=False)

    def forward(self, node_attrs):
        return self.linear(node_attrs)


class RadialEmbedding(nn.Module):
    def __init__(self, r_max, num_bessel):
        super().__init__()
        self.r_max = r_max
        self.register_buffer("freqs", torch.arange(1, num_bessel + 1).float() * torch.pi / r_max)

    def forward(self, lengths):
        return torch.sin(self.freqs * lengths) / lengths


class InteractionBlock(nn.Module):
    def __init__(self, channels, num_bessel):
        super().__init__()
        self.radial_mlp = nn.Sequential(nn.Linear(num_bessel, 16), nn.SiLU(), nn.Linear(16, channels))
        self.linear_up = nn.Linear(channels, channels)
        self.linear = nn.Linear(channels, channels)

    def forward(self, node_feats, edge_feats, edge_index):
        sender, receiver = edge_index
        messages = self.linear_up(node_feats)[sender] * self.radial_mlp(edge_feats)
        agg = torch.zeros_like(node_feats).index_add_(0, receiver, messages)
        return self.linear(agg)


class ProductBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.linear = nn.Linear(channels, channels)

    def forward(self, node_feats, sc):
        return self.linear(node_feats * node_feats + node_feats) + sc


class LinearReadout(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.linear = nn.Linear(channels, 1)

    def forward(self, x):
        return self.linear(x)


class ScaleShiftBlock(nn.Module):
    def __init__(self, scale, shift):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(scale, dtype=torch.float32))
        self.shift = nn.Parameter(torch.tensor(shift, dtype=torch.float32))

    def forward(self, x):
        return self.scale * x + self.shift


class MACE(nn.Module):
    def __init__(self, num_elements, channels, num_interactions, r_max, num_bessel, **kwargs):
        super().__init__()
        self.node_embedding = LinearNodeEmbedding(num_elements, channels)
        self.radial_embedding = RadialEmbedding(r_max, num_bessel)
        self.interactions = nn.ModuleList(
            [InteractionBlock(channels, num_bessel) for _ in range(num_interactions)]
        )
        self.products = nn.ModuleList([ProductBlock(channels) for _ in range(num_interactions)])
        self.readouts = nn.ModuleList([LinearReadout(channels) for _ in range(num_interactions)])

    def node_energies(self, data):
        node_feats = self.node_embedding(data["node_attrs"])
        sender, receiver = data["edge_index"]
        lengths = (data["positions"][receiver] - data["positions"][sender]).norm(dim=-1, keepdim=True)
        edge_feats = self.radial_embedding(lengths)
        energies = []
        for interaction, product, readout in zip(self.interactions, self.products, self.readouts):
            sc = node_feats
            node_feats = interaction(node_feats, edge_feats, data["edge_index"])
            node_feats = product(node_feats, sc)
            energies.append(readout(node_feats).squeeze(-1))
        return torch.stack(energies, dim=-1).sum(-1)

    def forward(self, data):
        node_e = self.node_energies(data)
        return torch.zeros(data["num_graphs"]).index_add_(0, data["batch"], node_e)


class ScaleShiftMACE(MACE):
    def __init__(self, atomic_inter_scale, atomic_inter_shift, **kwargs):
        super().__init__(**kwargs)
        self.scale_shift = ScaleShiftBlock(scale=atomic_inter_scale, shift=atomic_inter_shift)

    def forward(self, data):
        node_e = self.scale_shift(self.node_energies(data))
        return torch.zeros(data["num_graphs"]).index_add_(0, data["batch"], node_e)


MODELS = {"MACE": MACE, "ScaleShiftMACE": ScaleShiftMACE}
