import torch
import torch.nn as nn


class GradientReversal(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.coeff, None


class GRL(nn.Module):
    def __init__(self):
        super().__init__()
        self.coeff = 0.0

    def forward(self, x):
        return GradientReversal.apply(x, self.coeff)


class DANN(nn.Module):
    def __init__(self, in_dim=20, feat=32, n_classes=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, feat), nn.ReLU(), nn.Linear(feat, feat), nn.ReLU())
        self.classifier = nn.Linear(feat, n_classes)
        self.grl = GRL()
        self.domain_head = nn.Sequential(nn.Linear(feat, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        f = self.encoder(x)
        return self.classifier(f), self.domain_head(self.grl(f)).squeeze(-1)
