"""A point-cloud batch is marked as requiring grad, then augmented by writing shifted rows into it:
an in-place write into a view of a leaf that requires grad. Nothing reads the input's gradient."""
import torch
from torch import nn


def jitter_rows(clouds, shift):
    for i in range(clouds.shape[0]):
        clouds[i] = torch.roll(clouds[i], shift, dims=0)
    return clouds


torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 8))
batch = torch.randn(4, 32, 3)
batch.requires_grad_(True)
batch = jitter_rows(batch, 2)
loss = encoder(batch).max(dim=1).values.pow(2).mean()
loss.backward()
