import torch
import torch.nn as nn

from losses import center_distance_loss

MAX_BOXES = 8


class RotatedBoxHead(nn.Module):
    def __init__(self, in_dim=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, 5))

    def forward(self, roi_feats, valid):
        boxes = self.mlp(roi_feats)
        return boxes * valid[:, None]


def make_batch(num_real):
    feats = torch.randn(MAX_BOXES, 32)
    targets = torch.zeros(MAX_BOXES, 5)
    targets[:num_real] = torch.randn(num_real, 5)
    valid = torch.zeros(MAX_BOXES)
    valid[:num_real] = 1.0
    return feats, targets, valid


torch.manual_seed(0)
head = RotatedBoxHead()
optimizer = torch.optim.SGD(head.parameters(), lr=0.01)
for it in range(4):
    feats, targets, valid = make_batch(num_real=5)
    pred = head(feats, valid)
    loss = center_distance_loss(pred, targets, weight=valid)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    bad = any(torch.isnan(p).any().item() for p in head.parameters())
    print(f"iter {it}: loss {loss.item():.4f}  nan in weights: {bad}")
