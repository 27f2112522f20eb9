import torch
import torch.nn as nn
import torch.nn.functional as F

from .memory import MemoryModule


def up_block(in_ch, out_ch):
    return nn.Sequential(
        nn.ConvTranspose2d(in_ch, out_ch, 2, stride=2),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
        nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
    )


class StudentRM(nn.Module):
    def __init__(self, channels=(64, 128, 256), mem_slots=50, device="cpu"):
        super().__init__()
        self.bottleneck = nn.Sequential(
            nn.Conv2d(channels[2], channels[2], 3, padding=1, bias=False),
            nn.BatchNorm2d(channels[2]),
            nn.ReLU(inplace=True),
        )
        self.memory = MemoryModule(L=mem_slots, channel=channels[2], device=device)
        self.fuse = nn.Conv2d(2 * channels[2], channels[2], 1)
        self.up1 = up_block(channels[2], channels[1])
        self.up2 = up_block(channels[1], channels[0])

    def forward(self, feats, normality=False):
        z = self.bottleneck(feats[-1])
        recalled = self.memory(z, normality=normality)
        d3 = self.fuse(torch.cat([z, recalled], dim=1))
        d2 = self.up1(d3)
        d1 = self.up2(d2)
        return [d1, d2, d3]


def loss_fucntion(a, b):
    loss = 0
    for item in range(len(a)):
        loss += torch.mean(1 - F.cosine_similarity(a[item].flatten(1), b[item].flatten(1)))
    return loss
