"""The user's own anomaly mode stops on a NaN gradient: a distance through sqrt at 0."""
import torch

points = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
with torch.autograd.detect_anomaly():
    diff = points[:, None, :] - points[None, :, :]
    distances = (diff ** 2).sum(-1).sqrt()
    distances.sum().backward()
