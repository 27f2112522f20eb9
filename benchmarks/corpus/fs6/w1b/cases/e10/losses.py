import torch
import torch.nn.functional as F


class ContrastiveLoss(torch.nn.Module):
    def __init__(self, pos_margin=0.0, neg_margin=0.5):
        super().__init__()
        self.pos_margin = pos_margin
        self.neg_margin = neg_margin

    def forward(self, embeddings, labels):
        emb = F.normalize(embeddings, p=2, dim=1)
        dist = torch.cdist(emb, emb)
        same = labels.unsqueeze(0) == labels.unsqueeze(1)
        eye = torch.eye(len(labels), dtype=torch.bool)
        pos = F.relu(dist[same & ~eye] - self.pos_margin)
        neg = F.relu(self.neg_margin - dist[~same])
        pos_loss = pos.mean() if pos.numel() else dist.sum() * 0
        neg_loss = neg.mean() if neg.numel() else dist.sum() * 0
        return pos_loss + neg_loss
