import torch
from torch import nn

from functions import ScaledSigmoid, grad_reverse


class FeatureExtractor(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))

    def forward(self, x):
        return ScaledSigmoid.apply(self.body(x), 2.0)


class DANN(nn.Module):
    def __init__(self, in_dim=20, hidden=32, num_classes=3):
        super().__init__()
        self.features = FeatureExtractor(in_dim, hidden)
        self.label_head = nn.Linear(hidden, num_classes)
        self.domain_head = nn.Sequential(nn.Linear(hidden, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x, lambda_=1.0):
        feats = self.features(x)
        class_logits = self.label_head(feats)
        domain_logits = self.domain_head(grad_reverse(feats, lambda_)).squeeze(-1)
        return class_logits, domain_logits
