import torch
import torch.nn.functional as F
from torch import nn

from layers import FastFusion, get_act


class Backbone(nn.Module):
    def __init__(self, channels=(16, 32, 64)):
        super().__init__()
        stages, cin = [], 3
        for c in channels:
            stages.append(nn.Sequential(nn.Conv2d(cin, c, 3, stride=2, padding=1, bias=False),
                                        nn.BatchNorm2d(c), get_act("swish")))
            cin = c
        self.stages = nn.ModuleList(stages)

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        return feats


class BiFPNLayer(nn.Module):
    def __init__(self, channels, cfg):
        super().__init__()
        kw = dict(weight_act=cfg["fusion_weight_act"], conv_act=cfg["conv_act"], eps=cfg["fusion_eps"])
        self.td_p4 = FastFusion(2, channels, **kw)
        self.td_p3 = FastFusion(2, channels, **kw)
        self.out_p4 = FastFusion(3, channels, **kw)
        self.out_p5 = FastFusion(2, channels, **kw)

    def forward(self, feats):
        p3, p4, p5 = feats
        p4_td = self.td_p4([p4, F.interpolate(p5, scale_factor=2, mode="nearest")])
        p3_out = self.td_p3([p3, F.interpolate(p4_td, scale_factor=2, mode="nearest")])
        p4_out = self.out_p4([p4, p4_td, F.max_pool2d(p3_out, 2)])
        p5_out = self.out_p5([p5, F.max_pool2d(p4_out, 2)])
        return [p3_out, p4_out, p5_out]


class TinyDet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        ch = cfg["fpn_channels"]
        self.backbone = Backbone(cfg["backbone_channels"])
        self.lateral = nn.ModuleList(nn.Conv2d(c, ch, 1) for c in cfg["backbone_channels"])
        self.bifpn = nn.Sequential(*[BiFPNLayer(ch, cfg) for _ in range(cfg["fpn_repeats"])])
        self.cls_head = nn.Conv2d(ch, cfg["num_anchors"] * cfg["num_classes"], 3, padding=1)
        self.box_head = nn.Conv2d(ch, cfg["num_anchors"] * 4, 3, padding=1)
        self.num_classes = cfg["num_classes"]

    def forward(self, x):
        feats = [lat(f) for lat, f in zip(self.lateral, self.backbone(x))]
        feats = self.bifpn(feats)
        cls = torch.cat([self.cls_head(f).flatten(2) for f in feats], dim=2)
        box = torch.cat([self.box_head(f).flatten(2) for f in feats], dim=2)
        b = x.shape[0]
        return cls.view(b, -1, self.num_classes), box.view(b, -1, 4)
