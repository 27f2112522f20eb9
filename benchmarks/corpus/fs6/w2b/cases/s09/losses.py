import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _sigmoid(x):
    return torch.clamp(x.sigmoid_(), min=1e-4, max=1 - 1e-4)


class FocalLoss(nn.Module):
    def forward(self, pred, gt):
        pos = gt.eq(1).float()
        neg = gt.lt(1).float()
        neg_weights = torch.pow(1 - gt, 4)
        pos_loss = torch.log(pred) * torch.pow(1 - pred, 2) * pos
        neg_loss = torch.log(1 - pred) * torch.pow(pred, 2) * neg_weights * neg
        num_pos = pos.sum()
        if num_pos == 0:
            return -neg_loss.sum()
        return -(pos_loss.sum() + neg_loss.sum()) / num_pos


class RegL1Loss(nn.Module):
    def forward(self, output, mask, ind, target):
        pred = _gather_feat(output, ind)
        mask = mask.unsqueeze(2).expand_as(pred).float()
        return F.l1_loss(pred * mask, target * mask, reduction="sum") / (mask.sum() + 1e-4)


def _gather_feat(feat, ind):
    b, c = feat.shape[:2]
    feat = feat.view(b, c, -1).permute(0, 2, 1)
    ind = ind.unsqueeze(2).expand(ind.size(0), ind.size(1), c)
    return feat.gather(1, ind)


class MotLoss(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.crit = FocalLoss()
        self.crit_reg = RegL1Loss()
        self.crit_wh = RegL1Loss()
        self.opt = opt
        self.emb_dim = opt["reid_dim"]
        self.nID = opt["nID"]
        self.classifier = nn.Linear(self.emb_dim, self.nID)
        self.IDLoss = nn.CrossEntropyLoss(ignore_index=-1)
        self.emb_scale = math.sqrt(2) * math.log(self.nID - 1)
        self.s_det = nn.Parameter(-1.85 * torch.ones(1))
        self.s_id = nn.Parameter(-1.05 * torch.ones(1))

    def forward(self, outputs, batch):
        opt = self.opt
        output = outputs[-1]
        hm = _sigmoid(output["hm"])
        hm_loss = self.crit(hm, batch["hm"])
        wh_loss = self.crit_wh(output["wh"], batch["reg_mask"], batch["ind"], batch["wh"])
        off_loss = self.crit_reg(output["reg"], batch["reg_mask"], batch["ind"], batch["reg"])

        id_head = _gather_feat(output["id"], batch["ind"])
        id_head = id_head[batch["reg_mask"] > 0].contiguous()
        id_head = self.emb_scale * F.normalize(id_head)
        id_target = batch["ids"][batch["reg_mask"] > 0]
        id_output = self.classifier(id_head).contiguous()
        id_loss = self.IDLoss(id_output, id_target)

        det_loss = opt["hm_weight"] * hm_loss + opt["wh_weight"] * wh_loss + opt["off_weight"] * off_loss
        loss = torch.exp(-self.s_det) * det_loss + torch.exp(-self.s_id) * id_loss + (self.s_det + self.s_id)
        loss *= 0.5
        stats = {"loss": loss, "hm_loss": hm_loss, "wh_loss": wh_loss, "off_loss": off_loss, "id_loss": id_loss}
        return loss, stats
