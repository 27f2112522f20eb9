import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import resnet18


class FeedForward(nn.Module):
    def __init__(self, dim, hidden, dropout=0.1):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.ReLU()
        self.drop = nn.Dropout(dropout)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        x = self.fc1(x)
        x = self.act(x)
        x = self.drop(x)
        return self.fc2(x)


class CrossViewLayer(nn.Module):
    def __init__(self, dim, heads=4, dropout=0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.norm1 = nn.LayerNorm(dim)
        self.ffn = FeedForward(dim, dim * 2, dropout)
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, q, kv):
        h, _ = self.attn(q, kv, kv)
        q = self.norm1(q + h)
        q = self.norm2(q + self.ffn(q))
        return q


class MultiViewNet(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        backbone = resnet18(weights=None)
        self.stem = nn.Sequential(backbone.conv1, backbone.bn1, backbone.relu,
                                  backbone.maxpool, backbone.layer1, backbone.layer2)
        self.proj = nn.Conv2d(128, dim, 1)
        self.fuse = CrossViewLayer(dim)
        self.head = nn.Sequential(
            nn.Conv2d(dim, dim, 3, padding=1),
            nn.BatchNorm2d(dim),
            nn.ReLU(),
            nn.Conv2d(dim, 1, 1),
        )
        for m in self.modules():
            if isinstance(m, nn.ReLU) or isinstance(m, nn.Dropout):
                m.inplace = True

    def forward(self, glb, patches):
        b = glb.shape[0]
        g = self.proj(self.stem(glb))
        p = self.proj(self.stem(patches))
        _, c, h, w = g.shape
        gq = g.flatten(2).transpose(1, 2)
        pk = p.flatten(2).transpose(1, 2).reshape(b, -1, c)
        fused = self.fuse(gq, pk)
        fused = fused.transpose(1, 2).reshape(b, c, h, w)
        out = self.head(fused)
        return F.interpolate(out, size=glb.shape[-2:], mode="bilinear", align_corners=False)
