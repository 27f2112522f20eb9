import compat  # noqa: F401
import timm
import torch
import torch.nn as nn
import torch.nn.functional as F


class GoodsClassifier(nn.Module):
    def __init__(self, backbone_name, num_classes, drop_rate=0.2, embed_dim=256):
        super().__init__()
        self.backbone = timm.create_model(backbone_name, pretrained=False, num_classes=0)
        self.drop_rate = drop_rate
        self.neck = nn.Linear(self.backbone.head_hidden_size, embed_dim)
        self.bn = nn.BatchNorm1d(embed_dim)
        self.classifier = nn.Linear(embed_dim, num_classes)

    def forward(self, images):
        x = self.backbone(images)
        if self.drop_rate > 0.0:
            x = F.dropout(x, p=self.drop_rate, inplace=True, training=self.training)
        emb = self.bn(self.neck(x))
        return self.classifier(emb)
