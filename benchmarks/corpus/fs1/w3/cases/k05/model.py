import compat  # noqa: F401
import torch.nn as nn
from torchvision import models


def set_parameter_requires_grad(model, feature_extracting):
    if feature_extracting:
        for param in model.parameters():
            param.requires_grad = False


class FeatureExtractor(nn.Module):
    def __init__(self, num_classes, feature_extract=True):
        super().__init__()
        backbone = models.resnet18(weights=None)
        set_parameter_requires_grad(backbone, feature_extract)
        num_ftrs = backbone.fc.in_features
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.feature_extract = feature_extract
        self.classifier = nn.Sequential(
            nn.Dropout(0.2),
            nn.Linear(num_ftrs, 128),
            nn.ReLU(inplace=True),
            nn.Linear(128, num_classes),
        )

    def train(self, mode=True):
        super().train(mode)
        if self.feature_extract:
            self.backbone.eval()
        return self

    def forward(self, x):
        return self.classifier(self.backbone(x))
