import torch.nn as nn
import timm


class FineTuneClassifier(nn.Module):
    def __init__(self, backbone_name, num_classes, freeze_backbone=True, drop=0.1):
        super().__init__()
        self.backbone = timm.create_model(backbone_name, pretrained=False, num_classes=0)
        self.head = nn.Sequential(
            nn.Dropout(drop),
            nn.Linear(self.backbone.num_features, num_classes),
        )
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

    def trainable_parameters(self):
        return [p for p in self.parameters() if p.requires_grad]
