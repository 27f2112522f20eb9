import torch


def normalize_to_box(points):
    center = (points.max(dim=1, keepdim=True)[0] + points.min(dim=1, keepdim=True)[0]) / 2
    points = points - center
    scale = points.abs().amax(dim=(1, 2), keepdim=True)
    return points / scale


def mean_value_coordinates(query, cage, eps=1e-6):
    """Inverse-distance stand-in for 3D mean value coordinates, (B, N, C)."""
    dist = torch.cdist(query, cage)
    raw = 1.0 / (dist + eps)
    return raw / raw.sum(dim=-1, keepdim=True)


def deform_with_mvc(cage, cage_deformed, query, influence=None, verbose=False):
    weights = mean_value_coordinates(query, cage)
    if influence is not None:
        weights = weights + influence
    weights = weights.detach()
    deformed = torch.bmm(weights, cage_deformed)
    if verbose:
        return deformed, weights
    return deformed


def chamfer(a, b):
    d = torch.cdist(a, b)
    return d.min(dim=2)[0].mean() + d.min(dim=1)[0].mean()
