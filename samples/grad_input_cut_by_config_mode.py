"""A field samples a feature grid at points; the config picks "nearest" lookup, which rounds
the points to integer indices, so the gradient with respect to the points cannot be taken."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"resolution": 16, "lookup": "nearest"}


def lookup(grid, points, mode):
    if mode == "bilinear":
        out = F.grid_sample(grid[None], points.view(1, -1, 1, 2), mode="bilinear", align_corners=True)
        return out.view(grid.shape[0], -1).t()
    res = grid.shape[-1]
    index = ((points + 1) * 0.5 * (res - 1)).round().long().clamp(0, res - 1)
    return grid[:, index[:, 1], index[:, 0]].t()


class Field(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.grid = nn.Parameter(torch.randn(4, cfg["resolution"], cfg["resolution"]))
        self.head = nn.Linear(4, 1)
        self.mode = cfg["lookup"]

    def forward(self, points):
        return self.head(lookup(self.grid, points, self.mode)).squeeze(-1)


torch.manual_seed(0)
field = Field(CONFIG)
points = (torch.rand(32, 2) * 2 - 1).requires_grad_()
density = field(points)
(normals,) = torch.autograd.grad(density.sum(), points, create_graph=True)
