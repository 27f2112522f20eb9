import torch
from torch import nn


class SKConv(nn.Module):
    def __init__(self, features, M=2, G=1, r=2, stride=1, L=8):
        super().__init__()
        d = max(int(features / r), L)
        self.M = M
        self.features = features
        self.convs = nn.ModuleList([
            nn.Sequential(
                nn.Conv2d(features, features, 3, stride=stride, padding=1 + i, dilation=1 + i, groups=G, bias=False),
                nn.BatchNorm2d(features),
                nn.ReLU(inplace=False),
            )
            for i in range(M)
        ])
        self.gap = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Sequential(nn.Conv2d(features, d, 1), nn.ReLU(inplace=False))
        self.fcs = nn.ModuleList([nn.Conv2d(d, features, 1) for _ in range(M)])
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        batch_size = x.shape[0]
        feats = torch.cat([conv(x) for conv in self.convs], dim=1)
        feats = feats.view(batch_size, self.M, self.features, feats.shape[2], feats.shape[3])
        feats_U = torch.sum(feats, dim=1)
        feats_Z = self.fc(self.gap(feats_U))
        attention_vectors = torch.cat([fc(feats_Z) for fc in self.fcs], dim=1)
        attention_vectors = attention_vectors.view(batch_size, self.M, self.features, 1, 1)
        attention_vectors = self.softmax(attention_vectors)
        feats_V = torch.sum(feats * attention_vectors, dim=1)
        x += feats_V
        return x


class SKHead(nn.Module):
    def __init__(self, in_ch, mid_ch, out_ch, act):
        super().__init__()
        self.inc = nn.Sequential(nn.Conv2d(in_ch, mid_ch, 3, padding=1), nn.ReLU(inplace=False))
        self.sk = SKConv(mid_ch)
        self.out = nn.Conv2d(mid_ch, out_ch, 1)
        self.act = act

    def forward(self, x):
        return self.act(self.out(self.sk(self.inc(x))))
