import torch
import torch.nn as nn
import torch.nn.functional as F

from functions import mul_constant


class CosFace(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.35):
        super().__init__()
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, embeddings, labels):
        cosine = F.linear(F.normalize(embeddings), F.normalize(self.weight))
        one_hot = F.one_hot(labels, cosine.size(1)).to(cosine.dtype)
        return mul_constant(cosine - one_hot * self.m, self.s)


class ArcFace(nn.Module):
    def __init__(self, in_features, out_features, s=64.0, m=0.5):
        super().__init__()
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, embeddings, labels):
        cosine = F.linear(F.normalize(embeddings), F.normalize(self.weight)).clamp(-1 + 1e-7, 1 - 1e-7)
        theta = torch.acos(cosine)
        one_hot = F.one_hot(labels, cosine.size(1)).to(cosine.dtype)
        logits = torch.cos(theta + one_hot * self.m)
        return mul_constant(logits, self.s)


class Softmax(nn.Module):
    def __init__(self, in_features, out_features, **kwargs):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, embeddings, labels):
        return self.fc(embeddings)


HEADS = {"cosface": CosFace, "arcface": ArcFace, "softmax": Softmax}


def build_head(cfg, in_features, num_classes):
    kwargs = {k: v for k, v in cfg.items() if k != "type"}
    return HEADS[cfg["type"]](in_features, num_classes, **kwargs)

