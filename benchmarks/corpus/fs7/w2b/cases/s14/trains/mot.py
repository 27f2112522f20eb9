import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .base_trainer import BaseTrainer


def _sigmoid(x):
    return torch.clamp(x.sigmoid_(), min=1e-4, max=1 - 1e-4)


def _gather_feat(feat, ind):
    feat = feat.view(feat.size(0), feat.size(1), -1).permute(0, 2, 1)
    ind = ind.unsqueeze(2).expand(ind.size(0), ind.size(1), feat.size(2))
    return feat.gather(1, ind)


class FocalLoss(nn.Module):
    def forward(self, pred, gt):
        pos_inds = gt.eq(1).float()
        neg_inds = gt.lt(1).float()
        neg_weights = torch.pow(1 - gt, 4)
        pos_loss = (torch.log(pred) * torch.pow(1 - pred, 2) * pos_inds).sum()
        neg_loss = (torch.log(1 - pred) * torch.pow(pred, 2) * neg_weights * neg_inds).sum()
        num_pos = pos_inds.sum()
        if num_pos == 0:
            return -neg_loss
        return -(pos_loss + neg_loss) / num_pos


class RegL1Loss(nn.Module):
    def forward(self, output, mask, ind, target):
        pred = _gather_feat(output, ind)
        mask = mask.unsqueeze(2).expand_as(pred).float()
        return F.l1_loss(pred * mask, target * mask, reduction="sum") / (mask.sum() + 1e-4)


class MotLoss(torch.nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.crit = FocalLoss()
        self.crit_reg = RegL1Loss()
        self.opt = opt
        self.emb_dim = opt.reid_dim
        self.nID = opt.nID
        self.classifier = nn.Linear(self.emb_dim, self.nID)
        self.IDLoss = nn.CrossEntropyLoss(ignore_index=-1)
        self.emb_scale = math.sqrt(2) * math.log(self.nID - 1)
        self.s_det = nn.Parameter(-1.85 * torch.ones(1))
        self.s_id = nn.Parameter(-1.05 * torch.ones(1))

    def forward(self, outputs, batch):
        opt = self.opt
        output = outputs[0]
        hm = _sigmoid(output["hm"])
        hm_loss = self.crit(hm, batch["hm"])
        wh_loss = self.crit_reg(output["wh"], batch["reg_mask"], batch["ind"], batch["wh"])
        off_loss = self.crit_reg(output["reg"], batch["reg_mask"], batch["ind"], batch["reg"])

        id_head = _gather_feat(output["id"], batch["ind"])
        id_head = id_head[batch["reg_mask"] > 0].contiguous()
        id_head = self.emb_scale * F.normalize(id_head)
        id_target = batch["ids"][batch["reg_mask"] > 0]
        id_loss = self.IDLoss(self.classifier(id_head), id_target)

        det_loss = opt.hm_weight * hm_loss + opt.wh_weight * wh_loss + opt.off_weight * off_loss
        if opt.multi_loss == "uncertainty":
            loss = torch.exp(-self.s_det) * det_loss + torch.exp(-self.s_id) * id_loss \
                + (self.s_det + self.s_id)
            loss *= 0.5
        else:
            loss = det_loss + 0.1 * id_loss

        loss_stats = {"loss": loss, "hm_loss": hm_loss, "wh_loss": wh_loss,
                      "off_loss": off_loss, "id_loss": id_loss}
        return loss, loss_stats


class MotTrainer(BaseTrainer):
    def _get_losses(self, opt):
        loss_states = ["loss", "hm_loss", "wh_loss", "off_loss", "id_loss"]
        return loss_states, MotLoss(opt)


train_factory = {"mot": MotTrainer}
