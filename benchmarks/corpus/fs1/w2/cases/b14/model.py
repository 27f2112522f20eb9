import torch
import torch.nn as nn


class CrowdCounter(nn.Module):
    """Predicts the number of people in a patch from a density feature map."""

    def __init__(self, in_ch=1, width=16, integer_counts=False):
        super().__init__()
        self.integer_counts = integer_counts
        self.features = nn.Sequential(
            nn.Conv2d(in_ch, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.regressor = nn.Linear(width, 1)

    def forward(self, x):
        count = self.regressor(self.features(x).flatten(1)).squeeze(1)
        if self.integer_counts:
            count = torch.round(count)
        return count
