import compat  # noqa: F401
import torch
from torch import nn
from torchvision.models import resnet18
from torchvision.models._utils import IntermediateLayerGetter

from fpn import FPN


class ResNetBackbone(nn.Module):
    def __init__(self, out_stages=(2, 3, 4)):
        super().__init__()
        net = resnet18(weights=None)
        return_layers = {f"layer{s}": str(i) for i, s in enumerate(out_stages)}
        self.body = IntermediateLayerGetter(net, return_layers=return_layers)
        self.out_channels = [64 * 2 ** (s - 1) for s in out_stages]

    def forward(self, x):
        return list(self.body(x).values())


class SimpleHead(nn.Module):
    def __init__(self, in_channels, num_classes, feat_channels=64):
        super().__init__()
        self.cls = nn.Sequential(nn.Conv2d(in_channels, feat_channels, 3, padding=1),
                                 nn.ReLU(), nn.Conv2d(feat_channels, num_classes, 1))
        self.reg = nn.Sequential(nn.Conv2d(in_channels, feat_channels, 3, padding=1),
                                 nn.ReLU(), nn.Conv2d(feat_channels, 4, 1))

    def forward(self, feats):
        return [(self.cls(f), self.reg(f)) for f in feats]


class OneStageDetector(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = ResNetBackbone(**cfg["backbone"])
        fpn_cfg = dict(cfg["fpn"])
        fpn_cfg.pop("name")
        self.fpn = FPN(in_channels=self.backbone.out_channels, **fpn_cfg)
        self.head = SimpleHead(cfg["fpn"]["out_channels"], cfg["head"]["num_classes"])

    def forward(self, x):
        return self.head(self.fpn(self.backbone(x)))

    def loss(self, preds, gt_heatmaps, gt_boxes):
        total = 0.0
        for (cls, reg), hm, box in zip(preds, gt_heatmaps, gt_boxes):
            total = total + nn.functional.binary_cross_entropy_with_logits(cls, hm)
            total = total + nn.functional.smooth_l1_loss(reg, box)
        return total
