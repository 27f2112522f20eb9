import torch
import torch.nn.functional as F


class MultipleNegativesContrastiveLoss:
    def __init__(self, margin=0.2, scale=16.0):
        self.margin = margin
        self.scale = scale

    def _pairwise(self, anchors, anchor_labels, others, other_labels):
        sim = anchors @ others.t()
        pos = (anchor_labels[:, None] == other_labels[None, :]).float()
        neg = 1.0 - pos
        pos_term = torch.logsumexp(-self.scale * (sim - (1 - self.margin)) + torch.log(pos + 1e-12), dim=1)
        neg_term = torch.logsumexp(self.scale * (sim - self.margin) + torch.log(neg + 1e-12), dim=1)
        return F.softplus(pos_term + neg_term).mean() / self.scale

    def __call__(self, embeddings, targets):
        return self._pairwise(embeddings, targets, embeddings, targets)

    def xbm_loss(self, embeddings, targets, memory_embeddings, memory_targets):
        return self._pairwise(embeddings, targets, memory_embeddings, memory_targets)
