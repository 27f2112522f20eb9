import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function


class SubtractMargin(Function):
    """CosFace margin, applied in place to save memory: cos[i, y_i] -= m."""

    @staticmethod
    def forward(ctx, cos, one_hot, m):
        cos.sub_(one_hot * m)
        return cos

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None, None


class CosFaceHead(nn.Module):
    def __init__(self, in_features, num_classes, s=30.0, m=0.35):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_classes, in_features) * 0.01)
        self.s, self.m = s, m

    def forward(self, embeddings, labels):
        cos = F.linear(F.normalize(embeddings), F.normalize(self.weight))
        one_hot = F.one_hot(labels, cos.size(1)).to(cos.dtype)
        logits = SubtractMargin.apply(cos, one_hot, self.m)
        logits *= self.s
        return logits
