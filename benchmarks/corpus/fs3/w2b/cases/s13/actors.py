import torch
import torch.nn as nn


class BaseActor:
    def __init__(self, net, objective):
        self.net = net
        self.objective = objective

    def train(self, mode=True):
        self.net.train(mode)


class IoUNetActor(BaseActor):
    """Predicts the IoU of proposal boxes with the ground truth box."""

    def __call__(self, data):
        iou_pred = self.net(data["train_feat"], data["train_bb"], data["test_feat"], data["test_proposals"])
        iou_gt = data["proposal_iou"]
        loss = self.objective(iou_pred, iou_gt)
        with torch.no_grad():
            mae = (iou_pred - iou_gt).abs().mean()
        rank_acc = ((iou_pred.argmax(dim=1) == iou_gt.argmax(dim=1)).float().mean())
        top_iou = iou_pred.max(dim=1).values.mean()
        stats = {"Loss/total": loss, "Loss/iou": loss, "Stats/top_iou": top_iou,
                 "Stats/mae": mae.item(), "Stats/rank_acc": rank_acc.item()}
        return loss, stats


class AtomIoUNet(nn.Module):
    def __init__(self, feat_dim=32, hidden=64):
        super().__init__()
        self.modulation = nn.Sequential(nn.Linear(feat_dim + 4, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.proposal_enc = nn.Sequential(nn.Linear(feat_dim + 4, hidden), nn.ReLU())
        self.iou_predictor = nn.Linear(hidden, 1)

    def forward(self, train_feat, train_bb, test_feat, proposals):
        modulation = self.modulation(torch.cat([train_feat, train_bb], dim=-1))
        n = proposals.shape[1]
        test = test_feat.unsqueeze(1).expand(-1, n, -1)
        enc = self.proposal_enc(torch.cat([test, proposals], dim=-1))
        return self.iou_predictor(enc * modulation.unsqueeze(1)).squeeze(-1)
