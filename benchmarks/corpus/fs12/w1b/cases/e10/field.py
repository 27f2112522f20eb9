import torch
import torch.nn as nn
import torch.nn.functional as F


def sample_planes(planes, norm, mode):
    feats = []
    for i, (a, b) in enumerate(((0, 1), (0, 2), (1, 2))):
        uv = norm[:, [a, b]]
        plane = planes[i]
        if mode == "bilinear":
            grid = uv.view(1, -1, 1, 2)
            f = F.grid_sample(plane.unsqueeze(0), grid, mode="bilinear", align_corners=True)
            f = f.view(plane.shape[0], -1).t()
        else:
            res = plane.shape[-1]
            idx = ((uv + 1) * 0.5 * (res - 1)).round().long().clamp(0, res - 1)
            f = plane[:, idx[:, 1], idx[:, 0]].t()
        feats.append(f)
    return torch.cat(feats, dim=-1)


class TriplaneField(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        r, c = cfg["plane_res"], cfg["feat_dim"]
        self.planes = nn.Parameter(torch.randn(3, c, r, r) * 0.1)
        self.mlp = nn.Sequential(nn.Linear(3 * c, cfg["hidden"]), nn.Softplus(beta=10),
                                 nn.Linear(cfg["hidden"], 1))
        self.lo, self.hi = cfg["bounds"]
        self.mode = cfg["sample_mode"]

    def to_norm(self, wpts):
        return (wpts - self.lo) / (self.hi - self.lo) * 2 - 1

    def density(self, wpts):
        norm = self.to_norm(wpts)
        feat = sample_planes(self.planes, norm, self.mode)
        sigma = self.mlp(feat).squeeze(-1)
        return sigma, norm

    def density_and_gradient(self, wpts):
        sigma, norm = self.density(wpts)
        d_output = torch.ones_like(sigma)
        gradients = torch.autograd.grad(outputs=sigma, inputs=norm, grad_outputs=d_output,
                                        create_graph=True, retain_graph=True)[0]
        return sigma, gradients
