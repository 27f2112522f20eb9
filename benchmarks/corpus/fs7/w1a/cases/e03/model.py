import compat  # noqa: F401
import timm
import torch
import torch.nn as nn
import torch.nn.functional as F

from usam import USAM


class ClassBlock(nn.Module):
    def __init__(self, in_dim, embed_dim, num_classes):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, embed_dim), nn.BatchNorm1d(embed_dim),
                                   nn.Dropout(0.5))
        self.classifier = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        f = self.embed(x)
        return self.classifier(f), f


class ViewBranch(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = timm.create_model(cfg["backbone"], pretrained=False,
                                          features_only=True, out_indices=(1, 2, 3))
        chans = self.backbone.feature_info.channels()
        self.usams = nn.ModuleList(
            [USAM(c, polish=cfg["polish"]) if cfg["usam"] else nn.Identity() for c in chans])
        self.head = ClassBlock(sum(chans), cfg["embed_dim"], cfg["num_classes"])

    def forward(self, x):
        feats = self.backbone(x)
        pooled = []
        for f, usam in zip(feats, self.usams):
            if isinstance(usam, USAM):
                f, _ = usam(f)
            pooled.append(F.adaptive_avg_pool2d(f, 1).flatten(1))
        return self.head(torch.cat(pooled, 1))


class TwoViewNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.satellite = ViewBranch(cfg)
        self.drone = ViewBranch(cfg)

    def forward(self, sat, drone):
        return self.satellite(sat), self.drone(drone)
