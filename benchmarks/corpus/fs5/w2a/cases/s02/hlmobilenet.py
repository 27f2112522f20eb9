import torch
import torch.nn as nn
import torch.nn.functional as F

import compat  # noqa: F401
import timm


def conv_bn(inp, oup, k=3, s=1):
    return nn.Sequential(
        nn.Conv2d(inp, oup, k, s, k // 2, bias=False),
        nn.BatchNorm2d(oup),
        nn.ReLU6(inplace=True),
    )


class DecoderBlock(nn.Module):
    def __init__(self, inp, skip, oup):
        super().__init__()
        self.fuse = conv_bn(inp + skip, oup)

    def forward(self, x, skip):
        x = F.interpolate(x, size=skip.shape[-2:], mode="nearest")
        return self.fuse(torch.cat([x, skip], dim=1))


class MattingNet(nn.Module):
    def __init__(self, backbone="resnet10t", freeze_bn=False):
        super().__init__()
        self.encoder = timm.create_model(
            backbone, pretrained=False, features_only=True, out_indices=(1, 2, 3), in_chans=4
        )
        chs = self.encoder.feature_info.channels()
        self.dec3 = DecoderBlock(chs[2], chs[1], 64)
        self.dec2 = DecoderBlock(64, chs[0], 32)
        self.pred = nn.Sequential(conv_bn(32, 16), nn.Conv2d(16, 1, 3, 1, 1))
        if freeze_bn:
            self.freeze_bn()

    def freeze_bn(self):
        for m in self.encoder.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()
                m.weight.requires_grad = False
                m.bias.requires_grad = False

    def forward(self, x):
        f1, f2, f3 = self.encoder(x)
        y = self.dec3(f3, f2)
        y = self.dec2(y, f1)
        y = self.pred(y)
        y = F.interpolate(y, size=x.shape[-2:], mode="bilinear", align_corners=False)
        return torch.sigmoid(y)
