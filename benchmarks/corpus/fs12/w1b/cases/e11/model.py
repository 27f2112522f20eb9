import torch
import torch.nn as nn

from basis import BesselBasisLayer


class InteractionBlock(nn.Module):
    def __init__(self, hidden, num_radial):
        super().__init__()
        self.lin_rbf = nn.Linear(num_radial, hidden, bias=False)
        self.lin = nn.Linear(hidden, hidden)
        self.act = nn.SiLU()

    def reset_parameters(self):
        nn.init.xavier_uniform_(self.lin_rbf.weight)
        nn.init.xavier_uniform_(self.lin.weight)
        nn.init.zeros_(self.lin.bias)

    def forward(self, h, rbf, src, dst):
        msg = self.lin_rbf(rbf) * h[src]
        agg = torch.zeros_like(h).index_add_(0, dst, msg)
        return h + self.act(self.lin(agg))


class RadialNet(nn.Module):
    def __init__(self, hidden, num_blocks, num_radial, cutoff=5.0, num_types=10):
        super().__init__()
        self.emb = nn.Embedding(num_types, hidden)
        self.rbf = BesselBasisLayer(num_radial, cutoff)
        self.blocks = nn.ModuleList([InteractionBlock(hidden, num_radial) for _ in range(num_blocks)])
        self.out = nn.Linear(hidden, 1)
        self.reset_parameters()

    def reset_parameters(self):
        self.emb.reset_parameters()
        self.rbf.reset_parameters()
        for blk in self.blocks:
            blk.reset_parameters()
        self.out.reset_parameters()

    def forward(self, z, pos, src, dst, batch, num_graphs):
        dist = (pos[src] - pos[dst]).norm(dim=-1)
        rbf = self.rbf(dist)
        h = self.emb(z)
        for blk in self.blocks:
            h = blk(h, rbf, src, dst)
        e = self.out(h).squeeze(-1)
        return torch.zeros(num_graphs).index_add_(0, batch, e)
