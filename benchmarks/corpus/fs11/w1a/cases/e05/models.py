import torch
import torch.nn.functional as F
from torch import nn


class Generator(nn.Module):
    def __init__(self, latent_dim=32, ch=16, size=32):
        super().__init__()
        self.ch, self.base = ch, size // 4
        self.fc = nn.Linear(latent_dim, ch * self.base * self.base)
        self.net = nn.Sequential(
            nn.Upsample(scale_factor=2), nn.Conv2d(ch, ch, 3, padding=1), nn.Softplus(),
            nn.Upsample(scale_factor=2), nn.Conv2d(ch, 3, 3, padding=1), nn.Tanh(),
        )

    def visualize(self, z):
        x = self.fc(z).view(-1, self.ch, self.base, self.base)
        return (self.net(x) + 1) / 2


class FeatureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 5, stride=2, padding=2), nn.Softplus(),
            nn.Conv2d(16, 32, 3, padding=1), nn.Softplus(),
            nn.Conv2d(32, 32, 3, padding=1),
        )

    def forward(self, x):
        return self.features(x)


class TorchScorer:
    def __init__(self, net, layer_unit=(5, 8, 8)):
        self.net = net.eval()
        for p in self.net.parameters():
            p.requires_grad_(False)
        self.channel, self.i, self.j = layer_unit

    def score(self, img, scaler=False):
        acts = self.net(img)[:, self.channel, self.i, self.j]
        if scaler:
            return acts.sum()
        return acts


def preprocess(img, size=32):
    img = F.interpolate(img, size=(size, size), mode="bilinear", align_corners=False)
    mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
    return (img - mean) / std
