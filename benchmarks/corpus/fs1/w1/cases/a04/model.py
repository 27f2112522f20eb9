import torch
import torch.nn as nn


class RadialBasis(nn.Module):
    def __init__(self, num_basis=16, cutoff=5.0):
        super().__init__()
        self.cutoff = cutoff
        self.register_buffer("centers", torch.linspace(0.0, cutoff, num_basis))
        self.width = (cutoff / num_basis) ** 2

    def forward(self, r):
        envelope = 0.5 * (torch.cos(torch.pi * r / self.cutoff) + 1.0) * (r < self.cutoff)
        return torch.exp(-((r[..., None] - self.centers) ** 2) / self.width) * envelope[..., None]


class PairPotential(nn.Module):
    """Energy as a sum of learned pair and per-atom terms over a fixed-size cluster."""

    def __init__(self, num_species=4, num_basis=16, hidden=32, cutoff=5.0):
        super().__init__()
        self.embed = nn.Embedding(num_species, hidden)
        self.rbf = RadialBasis(num_basis, cutoff)
        self.pair = nn.Sequential(nn.Linear(num_basis + 2 * hidden, hidden), nn.SiLU(),
                                  nn.Linear(hidden, 1))
        self.atom = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, species, positions):
        n = positions.shape[1]
        diff = positions[:, :, None, :] - positions[:, None, :, :]
        eye = torch.eye(n, dtype=torch.bool, device=positions.device)
        r = (diff.pow(2).sum(-1) + eye).sqrt()
        h = self.embed(species)
        hij = torch.cat([self.rbf(r), h[:, :, None].expand(-1, -1, n, -1),
                         h[:, None, :].expand(-1, n, -1, -1)], dim=-1)
        e_pair = self.pair(hij).squeeze(-1).masked_fill(eye, 0.0).sum(dim=(1, 2)) * 0.5
        e_atom = self.atom(h).squeeze(-1).sum(dim=1)
        return e_pair + e_atom
