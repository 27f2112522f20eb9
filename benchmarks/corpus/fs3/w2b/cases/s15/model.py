import compat  # noqa: F401
import timm
import torch.nn as nn


class PropertyRegressor(nn.Module):
    def __init__(self, backbone="resnet18", num_targets=4, drop_rate=0.1):
        super().__init__()
        self.backbone = timm.create_model(backbone, pretrained=False, num_classes=0, drop_rate=drop_rate)
        self.head = nn.Linear(self.backbone.num_features, num_targets)

    def forward(self, x):
        return self.head(self.backbone(x))
