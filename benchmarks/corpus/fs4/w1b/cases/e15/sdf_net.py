import torch
import torch.nn as nn

from encoding import create_encoding


class SDFNetwork(nn.Module):
    def __init__(self, encoding_config, hidden=64, n_layers=3, n_feat=15):
        super().__init__()
        self.encoding = create_encoding(3, encoding_config)
        dims = [self.encoding.n_output_dims + 3] + [hidden] * n_layers
        layers = []
        for a, b in zip(dims[:-1], dims[1:]):
            layers += [nn.Linear(a, b), nn.Softplus(beta=100)]
        self.mlp = nn.Sequential(*layers)
        self.out = nn.Linear(hidden, 1 + n_feat)

    def forward(self, x):
        h = self.mlp(torch.cat([x, self.encoding(x)], dim=-1))
        out = self.out(h)
        return out[..., :1], out[..., 1:]

    def sdf_and_normals(self, x):
        x = x.requires_grad_(True)
        sdf, feat = self(x)
        normals = torch.autograd.grad(sdf, x, grad_outputs=torch.ones_like(sdf), create_graph=True)[0]
        return sdf, feat, normals


class ColorNetwork(nn.Module):
    def __init__(self, n_feat=15, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3 + 3 + n_feat, hidden), nn.ReLU(), nn.Linear(hidden, 3), nn.Sigmoid())

    def forward(self, x, normals, feat):
        return self.net(torch.cat([x, normals, feat], dim=-1))
