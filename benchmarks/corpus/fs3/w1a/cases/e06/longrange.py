"""Reciprocal-space (Ewald) electrostatics with a learnable Gaussian smearing."""
import math

import torch
import torch.nn as nn


def generate_kvectors(cell, n_max):
    reciprocal = 2 * math.pi * torch.linalg.inv(cell).T
    r = torch.arange(-n_max, n_max + 1, dtype=cell.dtype)
    grid = torch.stack(torch.meshgrid(r, r, r, indexing="ij"), dim=-1).reshape(-1, 3)
    grid = grid[(grid != 0).any(dim=1)]
    return grid @ reciprocal


class EwaldKSpace(nn.Module):
    def __init__(self, n_max=3, smearing=1.0, learn_smearing=True):
        super().__init__()
        self.n_max = n_max
        log_s = torch.tensor(math.log(smearing))
        if learn_smearing:
            self.log_smearing = nn.Parameter(log_s)
        else:
            self.register_buffer("log_smearing", log_s)
        self._cell_cache = None
        self._kspace_cache = None

    def _kspace(self, cell):
        if self._cell_cache is not None and torch.equal(cell, self._cell_cache):
            return self._kspace_cache
        kvectors = generate_kvectors(cell, self.n_max)
        k_sq = (kvectors ** 2).sum(dim=1)
        smearing = self.log_smearing.exp()
        kernel = 4 * math.pi * torch.exp(-0.5 * smearing ** 2 * k_sq) / k_sq
        self._cell_cache = cell.clone()
        self._kspace_cache = (kvectors, kernel)
        return self._kspace_cache

    def forward(self, positions, charges, cell):
        kvectors, kernel = self._kspace(cell)
        volume = torch.abs(torch.linalg.det(cell))
        phase = positions @ kvectors.T
        s_re = (charges[:, None] * torch.cos(phase)).sum(dim=0)
        s_im = (charges[:, None] * torch.sin(phase)).sum(dim=0)
        energy = (kernel * (s_re ** 2 + s_im ** 2)).sum() / (2 * volume)
        smearing = self.log_smearing.exp()
        self_term = (charges ** 2).sum() / (math.sqrt(2 * math.pi) * smearing)
        return energy - self_term
