import torch
import torch.nn as nn
import torch.nn.functional as F


class ResampleLoss(nn.Module):
    """Distribution-balanced BCE with negative-tolerant logit regularisation."""

    def __init__(self, class_freq, train_num, neg_scale=5.0, neg_bias=0.1, focal_gamma=2.0):
        super().__init__()
        self.neg_scale = neg_scale
        self.gamma = focal_gamma
        self.neg_bias = -torch.log(train_num / class_freq - 1) * neg_bias / neg_scale

    def logit_reg_functions(self, labels, logits, weight):
        logits += self.neg_bias
        logits = logits * (1 - labels) * self.neg_scale + logits * labels
        weight = weight / self.neg_scale * (1 - labels) + weight * labels
        return logits, weight

    def forward(self, cls_score, label):
        weight = torch.ones_like(cls_score)
        cls_score, weight = self.logit_reg_functions(label.float(), cls_score, weight)
        loss = F.binary_cross_entropy_with_logits(cls_score, label.float(), weight=weight, reduction="none")
        pt = torch.exp(-loss.detach())
        return ((1 - pt) ** self.gamma * loss).mean()
