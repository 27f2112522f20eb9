import math
import torch


def ring_of_gaussians(n, modes=8, radius=2.0, std=0.05):
    idx = torch.randint(0, modes, (n,))
    angle = idx.float() * (2 * math.pi / modes)
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + std * torch.randn(n, 2)


def mode_coverage(samples, modes=8, radius=2.0, tol=0.3):
    angle = torch.arange(modes).float() * (2 * math.pi / modes)
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    dist = torch.cdist(samples, centers)
    hit = dist.min(dim=1).values < tol
    covered = torch.unique(dist.argmin(dim=1)[hit])
    return covered.numel(), hit.float().mean().item()
