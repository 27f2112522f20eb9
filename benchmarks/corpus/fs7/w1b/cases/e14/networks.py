import torch
import torch.nn as nn


class GNet(nn.Module):
    def __init__(self, dim_latent, depth, dim_output=3):
        super().__init__()
        self.dim_latent = dim_latent
        self.fc = nn.Linear(dim_latent, depth * 4 * 4)
        self.depth = depth
        self.body = nn.Sequential(
            nn.Upsample(scale_factor=2), nn.Conv2d(depth, depth, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Upsample(scale_factor=2), nn.Conv2d(depth, depth // 2, 3, padding=1), nn.LeakyReLU(0.2),
        )
        self.to_rgb = nn.Conv2d(depth // 2, dim_output, 1)

    def forward(self, z):
        x = self.fc(z).view(z.size(0), self.depth, 4, 4)
        return self.to_rgb(self.body(x))


class DNet(nn.Module):
    def __init__(self, depth, dim_input=3):
        super().__init__()
        self.from_rgb = nn.Conv2d(dim_input, depth // 2, 1)
        self.body = nn.Sequential(
            nn.Conv2d(depth // 2, depth, 3, padding=1), nn.LeakyReLU(0.2), nn.AvgPool2d(2),
            nn.Conv2d(depth, depth, 3, padding=1), nn.LeakyReLU(0.2), nn.AvgPool2d(2),
        )
        self.fc = nn.Linear(depth * 4 * 4, depth)
        self.decision = nn.Linear(depth, 1)

    def forward(self, x, getFeature=False):
        x = self.body(self.from_rgb(x)).flatten(1)
        feature = nn.functional.leaky_relu(self.fc(x), 0.2)
        out = self.decision(feature)
        if getFeature:
            return out, feature
        return out
