import torch
import torch.nn as nn
import torch.nn.functional as F


class MLPBackbone(nn.Module):
    def __init__(self, in_dim=32, dim=64):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(in_dim, dim), nn.BatchNorm1d(dim), nn.ReLU(inplace=True),
            nn.Linear(dim, dim), nn.BatchNorm1d(dim), nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.layers(x)


class DINOHead(nn.Module):
    def __init__(self, in_dim, out_dim=128, bottleneck_dim=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, in_dim), nn.GELU(), nn.Linear(in_dim, bottleneck_dim))
        self.last_layer = nn.utils.parametrizations.weight_norm(nn.Linear(bottleneck_dim, out_dim, bias=False))

    def forward(self, x):
        x = self.mlp(x)
        x = F.normalize(x, dim=-1, p=2)
        return self.last_layer(x)


class MultiCropWrapper(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone = backbone
        self.head = head

    def forward(self, crops):
        out = self.backbone(torch.cat(crops, dim=0))
        return self.head(out)
