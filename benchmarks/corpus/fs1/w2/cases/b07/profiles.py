import torch
import torch.nn as nn

PROFILES = {}


def register(name):
    def wrap(cls):
        PROFILES[name] = cls
        return cls
    return wrap


def _h(x):
    inside = x < 1
    f_inside = torch.arccosh(1 / x) / torch.sqrt(1 - x**2)
    f_outside = torch.arccos(1 / x) / torch.sqrt(x**2 - 1)
    return torch.log(x / 2) + torch.where(inside, f_inside, f_outside)


@register("nfw")
class NFW(nn.Module):
    """Spherical NFW lens: deflection angle as a function of projected radius."""

    def __init__(self, log_kappa_s=0.0, log_r_s=0.0):
        super().__init__()
        self.log_kappa_s = nn.Parameter(torch.tensor(log_kappa_s))
        self.log_r_s = nn.Parameter(torch.tensor(log_r_s))

    def forward(self, r):
        r_s = self.log_r_s.exp()
        x = r / r_s
        return 4 * self.log_kappa_s.exp() * r_s * _h(x) / x


@register("sis")
class SIS(nn.Module):
    def __init__(self, log_theta_e=0.0):
        super().__init__()
        self.log_theta_e = nn.Parameter(torch.tensor(log_theta_e))

    def forward(self, r):
        return self.log_theta_e.exp() * torch.ones_like(r)


def build_profile(cfg):
    kwargs = {k: v for k, v in cfg.items() if k != "type"}
    return PROFILES[cfg["type"]](**kwargs)
