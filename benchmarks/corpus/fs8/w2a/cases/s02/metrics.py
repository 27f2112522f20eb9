import math

import torch
import torch.nn.functional as F
from torch import nn


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.50, easy_margin=False):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.s = s
        self.m = m
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.easy_margin = easy_margin
        self.cos_m = math.cos(m)
        self.sin_m = math.sin(m)
        self.th = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m

    def forward(self, input, label):
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        sine = torch.sqrt(1.0 - torch.pow(cosine, 2))
        phi = cosine * self.cos_m - sine * self.sin_m
        if self.easy_margin:
            phi = torch.where(cosine > 0, phi, cosine)
        else:
            phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = torch.zeros_like(cosine)
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        output = (one_hot * phi) + ((1.0 - one_hot) * cosine)
        return output * self.s


HEAD_INIT = {}


def register_init(name):
    def wrap(fn):
        HEAD_INIT[name] = fn
        return fn
    return wrap


@register_init("xavier")
def xavier_init(head, backbone, images, labels):
    nn.init.xavier_uniform_(head.weight)


@register_init("prototype")
@torch.no_grad()
def prototype_init(head, backbone, images, labels):
    feats = backbone(images)
    for c in labels.unique():
        first = (labels == c).nonzero()[0, 0]
        head.weight[c] = feats[first]
