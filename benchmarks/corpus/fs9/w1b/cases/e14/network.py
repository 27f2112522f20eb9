import compat  # noqa: F401
import timm
import torch
import torch.nn as nn
import torch.nn.functional as F

from softsplat import softsplat


class FlowRefiner(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(2 * ch + 2, 32, 3, padding=1), nn.LeakyReLU(0.1),
            nn.Conv2d(32, 2, 3, padding=1),
        )

    def forward(self, x):
        return self.net(x)


class SplatInterpolator(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = timm.create_model(cfg["backbone"], pretrained=False, features_only=True,
                                         out_indices=cfg["out_indices"])
        chs = self.encoder.feature_info.channels()
        self.metric = nn.ModuleList(nn.Conv2d(c, 1, 1) for c in chs)
        self.refiners = nn.ModuleList(FlowRefiner(c) for c in chs)
        self.init_flow = nn.Conv2d(2 * chs[-1], 2, 3, padding=1)
        self.fuse = nn.ModuleList(nn.Conv2d(2 * c, c, 1) for c in chs)
        self.head = nn.Conv2d(chs[0], 3, 3, padding=1)

    def forward(self, img0, img1):
        feats0 = self.encoder(img0)
        feats1 = self.encoder(img1)
        flow = self.init_flow(torch.cat([feats0[-1], feats1[-1]], 1))
        out = None
        for level in reversed(range(len(feats0))):
            f0, f1 = feats0[level], feats1[level]
            if flow.shape[-1] != f0.shape[-1]:
                flow = F.interpolate(flow, size=f0.shape[-2:], mode="bilinear", align_corners=False) * 2.0
            metric = self.metric[level](f0).clamp(-20, 20)
            warped = softsplat(f0, flow, metric, "soft")
            flow += self.refiners[level](torch.cat([warped, f1, flow], 1))
            fused = self.fuse[level](torch.cat([warped, f1], 1))
            out = fused if out is None else fused + F.interpolate(out, size=fused.shape[-2:], mode="bilinear",
                                                                   align_corners=False)[:, :fused.shape[1]]
        pred = self.head(out)
        return F.interpolate(pred, size=img0.shape[-2:], mode="bilinear", align_corners=False)
