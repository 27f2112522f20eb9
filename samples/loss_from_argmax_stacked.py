"""Keypoint coordinates decoded with argmax inside a helper and stacked into one tensor: argmax
has no gradient, so the loss built from the stacked coordinates has no graph and backward fails.
The cut is the argmax line in the helper, behind a torch.stack of its results (issue 16 §3)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Heatmaps(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 2, 3, padding=1)

    def forward(self, img):
        return self.conv(img).flatten(2)


def decode(heatmaps):
    rows = [torch.argmax(h, dim=-1) for h in heatmaps.unbind(1)]
    return torch.stack(rows, dim=-1).float()


torch.manual_seed(0)
model = Heatmaps()
coords = decode(model(torch.randn(2, 3, 8, 8)))
loss = F.l1_loss(coords, torch.rand(2, 2) * 64)
loss.backward()
