import torch
import torch.nn as nn


def inverse_sigmoid(x):
    return torch.log(x / (1 - x))


class GaussianModel:
    def __init__(self):
        self._xyz = torch.empty(0)
        self._features_dc = torch.empty(0)
        self._scaling = torch.empty(0)
        self._rotation = torch.empty(0)
        self._opacity = torch.empty(0)
        self.optimizer = None
        self.scaling_activation = torch.exp
        self.opacity_activation = torch.sigmoid

    @property
    def get_xyz(self):
        return self._xyz

    @property
    def get_scaling(self):
        return self.scaling_activation(self._scaling)

    @property
    def get_rotation(self):
        return torch.nn.functional.normalize(self._rotation, dim=-1)

    @property
    def get_opacity(self):
        return self.opacity_activation(self._opacity)

    @property
    def get_colors(self):
        return torch.sigmoid(self._features_dc)

    def create_from_pcd(self, points, colors):
        n = points.shape[0]
        dist2 = torch.cdist(points, points).add(torch.eye(n) * 1e6).min(dim=1).values.pow(2).clamp(min=1e-7)
        scales = torch.log(torch.sqrt(dist2))[..., None].repeat(1, 3)
        rots = torch.rand((n, 4))
        opacities = inverse_sigmoid(0.1 * torch.ones((n, 1)))
        self._xyz = nn.Parameter(points.clone().requires_grad_(True))
        self._features_dc = nn.Parameter(inverse_sigmoid(colors.clamp(0.05, 0.95)).requires_grad_(True))
        self._scaling = nn.Parameter(scales.requires_grad_(True))
        self._rotation = nn.Parameter(rots.requires_grad_(True))
        self._opacity = nn.Parameter(opacities.requires_grad_(True))

    def training_setup(self, args):
        groups = [
            {"params": [self._xyz], "lr": args["position_lr"], "name": "xyz"},
            {"params": [self._features_dc], "lr": args["feature_lr"], "name": "f_dc"},
            {"params": [self._opacity], "lr": args["opacity_lr"], "name": "opacity"},
            {"params": [self._scaling], "lr": args["scaling_lr"], "name": "scaling"},
            {"params": [self._rotation], "lr": args["rotation_lr"], "name": "rotation"},
        ]
        self.optimizer = torch.optim.Adam(groups, lr=0.0, eps=1e-15)
