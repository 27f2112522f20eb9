import compat  # noqa: F401
import torch.nn as nn
import torchvision


class LinearProbe(nn.Module):
    def __init__(self, num_classes=5, arch="resnet18"):
        super().__init__()
        backbone = getattr(torchvision.models, arch)(weights=None)
        feat_dim = backbone.fc.in_features
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(feat_dim, num_classes))

    def forward(self, x):
        return self.head(self.backbone(x))
