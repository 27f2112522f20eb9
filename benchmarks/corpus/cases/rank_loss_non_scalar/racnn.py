import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaleNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.classifier = nn.Linear(8 * 16, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


class RACNN(nn.Module):
    """Two scales: the second looks at a zoomed centre crop of the first."""

    def __init__(self, num_classes=10):
        super().__init__()
        self.scale1 = ScaleNet(num_classes)
        self.scale2 = ScaleNet(num_classes)

    def forward(self, x):
        s1 = self.scale1(x)
        crop = x[..., 4:12, 4:12]
        zoomed = F.interpolate(crop, size=x.shape[-2:], mode="bilinear", align_corners=False)
        s2 = self.scale2(zoomed)
        return [s1, s2]


class RankLoss(nn.Module):
    def __init__(self, margin=0.05):
        super().__init__()
        self.margin = margin

    def forward(self, scores1, scores2, target):
        ps1 = F.softmax(scores1, dim=1).gather(1, target.view(-1, 1))
        ps2 = F.softmax(scores2, dim=1).gather(1, target.view(-1, 1))
        return torch.clamp(ps1 - ps2 + self.margin, min=0)
