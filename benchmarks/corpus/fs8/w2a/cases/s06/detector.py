import compat  # noqa: F401

from collections import OrderedDict

import torch
import torch.nn.functional as F
from torch import nn
from torchvision.models import resnet18
from torchvision.models._utils import IntermediateLayerGetter
from torchvision.ops import FeaturePyramidNetwork

from dgfe import DGFE, ReconstructionHead


class SRTODNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        body = resnet18(weights=None)
        self.body = IntermediateLayerGetter(body, return_layers={"layer1": "p2", "layer2": "p3"})
        self.fpn = FeaturePyramidNetwork([64, 128], cfg["fpn_channels"])
        self.recon_head = ReconstructionHead(cfg["fpn_channels"])
        self.use_dgfe = cfg["dgfe"]["enabled"]
        if self.use_dgfe:
            self.dgfe = DGFE(cfg["fpn_channels"], cfg["dgfe"]["thresh_init"])
        self.cls_head = nn.Conv2d(cfg["fpn_channels"], cfg["num_classes"], 3, padding=1)

    def forward(self, images):
        feats = self.fpn(self.body(images))
        p2 = feats["p2"]
        recon = self.recon_head(p2, images.shape[-2:])
        if self.use_dgfe:
            difference_map = (recon - images).abs().mean(dim=1, keepdim=True)
            p2 = self.dgfe(p2, difference_map)
        logits = self.cls_head(p2)
        return OrderedDict(logits=logits, recon=recon)


def compute_losses(outputs, images, heatmaps, recon_weight):
    cls_loss = F.binary_cross_entropy_with_logits(outputs["logits"], heatmaps)
    recon_loss = F.mse_loss(outputs["recon"], images)
    return {"cls": cls_loss, "recon": recon_weight * recon_loss}
