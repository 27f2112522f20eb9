import torch
import torch.nn as nn

from fusion import CrossModalityFusion


def conv_bn(cin, cout, s=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, s, 1, bias=False), nn.BatchNorm2d(cout), nn.SiLU())


class TwoStreamDetector(nn.Module):
    def __init__(self, nc=3, width=32):
        super().__init__()
        self.rgb_stem = nn.Sequential(conv_bn(3, width, 2), conv_bn(width, width, 2))
        self.ir_stem = nn.Sequential(conv_bn(1, width, 2), conv_bn(width, width, 2))
        self.fuse = CrossModalityFusion(width)
        self.neck = conv_bn(2 * width, width)
        self.detect = nn.Conv2d(width, 5 + nc, 1)

    def forward(self, rgb, ir):
        r, i = self.fuse(self.rgb_stem(rgb), self.ir_stem(ir))
        return self.detect(self.neck(torch.cat([r, i], 1)))
