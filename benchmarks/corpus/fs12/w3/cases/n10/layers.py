import math

import torch
import torch.nn as nn


class Bottleneck1d(nn.Module):
    expansion = 2

    def __init__(self, cin, planes, stride=1):
        super().__init__()
        out = planes * self.expansion
        self.conv1 = nn.Conv1d(cin, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm1d(planes)
        self.conv2 = nn.Conv1d(planes, planes, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm1d(planes)
        self.conv3 = nn.Conv1d(planes, out, 1, bias=False)
        self.bn3 = nn.BatchNorm1d(out)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None
        if stride != 1 or cin != out:
            self.downsample = nn.Sequential(nn.Conv1d(cin, out, 1, stride, bias=False), nn.BatchNorm1d(out))

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        out = self.relu(out)
        out = self.conv3(out)
        out = self.bn3(out)
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        out = self.relu(out)
        return out


class AttentionPool(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.query = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.kv = nn.Linear(dim, 2 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, pad_mask):
        b, t, d = x.shape
        k, v = self.kv(x).chunk(2, dim=-1)
        q = self.query.expand(b, -1, -1)
        q = q.view(b, 1, self.heads, -1).transpose(1, 2)
        k = k.reshape(b, t, self.heads, -1).transpose(1, 2)
        v = v.reshape(b, t, self.heads, -1).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.size(-1))
        scores.masked_fill_(pad_mask[:, None, None, :], float("-inf"))
        attn = scores.softmax(dim=-1)
        pooled = torch.matmul(attn, v).transpose(1, 2).reshape(b, d)
        return self.out(pooled)
