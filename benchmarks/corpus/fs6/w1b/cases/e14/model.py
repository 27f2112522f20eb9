import torch
import torch.nn as nn

from attention import NystromAttention


class TransLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = NystromAttention(dim=dim, dim_head=dim // 4, heads=4, num_landmarks=dim // 8)

    def forward(self, x):
        return x + self.attn(self.norm(x))


class TransMIL(nn.Module):
    def __init__(self, in_dim, dim, n_classes):
        super().__init__()
        self.fc1 = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU())
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.layer1 = TransLayer(dim)
        self.layer2 = TransLayer(dim)
        self.norm = nn.LayerNorm(dim)
        self.fc2 = nn.Linear(dim, n_classes)
        self.pad_multiple = dim // 8

    def forward(self, feats):
        h = self.fc1(feats)
        n = h.shape[1]
        add = (-(n + 1)) % self.pad_multiple
        h = torch.cat([h, h[:, :add]], dim=1)
        h = torch.cat([self.cls_token.expand(h.size(0), -1, -1), h], dim=1)
        h = self.layer1(h)
        h = self.layer2(h)
        return self.fc2(self.norm(h)[:, 0])
