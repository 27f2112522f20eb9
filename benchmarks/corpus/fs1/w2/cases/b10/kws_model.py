import torch
import torch.nn as nn
import torch.nn.functional as F


class KWSModel(nn.Module):
    def __init__(self, idim=40, hdim=32, num_keywords=1):
        super().__init__()
        self.preprocessing = nn.Linear(idim, hdim)
        self.backbone = nn.GRU(hdim, hdim, batch_first=True)
        self.classifier = nn.Linear(hdim, num_keywords)

    def forward(self, x):
        x = F.relu(self.preprocessing(x))
        x, _ = self.backbone(x)
        return torch.sigmoid(self.classifier(x))


def max_pooling_loss(logits, target, lengths):
    mask = torch.arange(logits.size(1)).unsqueeze(0) < lengths.unsqueeze(1)
    probs = logits.squeeze(-1).masked_fill(~mask, 0.0)
    max_prob = probs.max(dim=1).values.clamp(1e-6, 1 - 1e-6)
    loss = F.binary_cross_entropy(max_prob, target.float())
    acc = ((max_prob > 0.5).long() == target).float().mean().item()
    return loss, acc
