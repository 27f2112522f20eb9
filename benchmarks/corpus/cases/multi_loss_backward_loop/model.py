import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=20, hidden=64, num_classes=5):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.cls_head = nn.Linear(hidden, num_classes)
        self.reg_head = nn.Linear(hidden, 1)

    def loss(self, x, y_cls, y_reg):
        features = self.trunk(x)
        loss_cls = F.cross_entropy(self.cls_head(features), y_cls)
        loss_reg = F.mse_loss(self.reg_head(features).squeeze(-1), y_reg)
        return loss_cls, loss_reg
