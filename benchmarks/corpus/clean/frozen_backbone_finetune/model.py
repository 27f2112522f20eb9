import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, in_ch=3, width=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.stage = nn.Sequential(nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.BatchNorm2d(width * 2), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.out_dim = width * 2

    def forward(self, x):
        return self.pool(self.stage(self.stem(x))).flatten(1)


class Classifier(nn.Module):
    def __init__(self, backbone, n_classes):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(backbone.out_dim, n_classes))

    def forward(self, x):
        return self.head(self.backbone(x))

    def freeze_backbone(self):
        self.backbone.requires_grad_(False)
        self.backbone.eval()

    def train(self, mode=True):
        super().train(mode)
        if not any(p.requires_grad for p in self.backbone.parameters()):
            self.backbone.eval()
        return self
