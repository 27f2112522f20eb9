import torch


def center_distance_loss(pred, target, weight):
    """Euclidean distance between predicted and target box centres (x, y, w, h, angle boxes)."""
    dist = torch.sqrt(((pred[:, :2] - target[:, :2]) ** 2).sum(dim=-1))
    shape = (pred[:, 2:4] - target[:, 2:4]).abs().sum(dim=-1)
    angle = 1 - torch.cos(pred[:, 4] - target[:, 4])
    loss = dist + 0.5 * shape + angle
    return (loss * weight).sum() / weight.sum().clamp(min=1.0)
