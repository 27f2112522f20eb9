import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, alpha=0.25, gamma=2.0, num_classes=3):
        super().__init__()
        self.alpha = torch.full((num_classes,), 1 - alpha)
        self.alpha[0] = alpha
        self.gamma = gamma

    def forward(self, preds, labels):
        log_p = F.log_softmax(preds, dim=1).gather(1, labels[:, None]).squeeze(1)
        p = log_p.exp()
        loss = -self.alpha[labels] * (1 - p) ** self.gamma * log_p
        return loss.mean()


class GestureHead(nn.Module):
    """Classification branch added on top of the keypoint features."""

    def __init__(self, in_channels=32, num_classes=3):
        super().__init__()
        self.cls_branch = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(in_channels, num_classes))
        self.focal = FocalLoss(num_classes=num_classes)

    def forward(self, feats):
        return self.cls_branch(feats)

    def loss(self, feats, gt_cls):
        pre_cls = self.forward(feats)
        pre_cls1 = torch.tensor(pre_cls, device=gt_cls.device)
        losses = {"loss_cls": self.focal(pre_cls1, gt_cls)}
        with torch.no_grad():
            losses["acc_cls"] = (pre_cls.argmax(1) == gt_cls).float().mean()
        return losses
