import compat  # noqa: F401
import torch.nn as nn
from torchvision.models import resnet18


class LinearProbe(nn.Module):
    """ResNet-18 feature extractor with a trainable classification head."""

    def __init__(self, num_classes, freeze_backbone=True):
        super().__init__()
        backbone = resnet18(weights=None)
        in_features = backbone.fc.in_features
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(in_features, num_classes))
        self.freeze_backbone = freeze_backbone
        if freeze_backbone:
            for p in self.backbone.parameters():
                p.requires_grad = False

    def train(self, mode=True):
        super().train(mode)
        if self.freeze_backbone:
            self.backbone.eval()
        return self

    def forward(self, x):
        feats = self.backbone(x)
        return self.head(feats)
