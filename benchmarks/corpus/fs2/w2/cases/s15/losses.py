import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def gather_at(feat, ind):
    n, c = feat.shape[:2]
    flat = feat.reshape(n, c, -1).transpose(1, 2)
    return flat.gather(1, ind.unsqueeze(-1).expand(-1, -1, c))


def centernet_focal_loss(logits, gt, alpha=2, beta=4):
    pred = logits.sigmoid().clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1.0 - pos
    pos_term = torch.log(pred) * (1 - pred) ** alpha * pos
    neg_term = torch.log(1 - pred) * pred ** alpha * (1 - gt) ** beta * neg
    return -(pos_term.sum() + neg_term.sum()) / pos.sum().clamp(min=1)


def masked_l1(output, mask, ind, target):
    pred = gather_at(output, ind)
    m = mask.unsqueeze(-1).expand_as(pred)
    return F.l1_loss(pred * m, target * m, reduction="sum") / (m.sum() + 1e-4)


class JointDetReIDLoss(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.opt = opt
        self.num_ids = opt["nID"]
        self.id_classifier = nn.Linear(opt["reid_dim"], self.num_ids)
        self.id_criterion = nn.CrossEntropyLoss(ignore_index=-1)
        self.emb_scale = math.sqrt(2) * math.log(self.num_ids - 1)
        self.s_det = nn.Parameter(torch.full((1,), -1.85))
        self.s_id = nn.Parameter(torch.full((1,), -1.05))

    def forward(self, output, batch):
        opt = self.opt
        hm_loss = centernet_focal_loss(output["hm"], batch["hm"])
        wh_loss = masked_l1(output["wh"], batch["reg_mask"], batch["ind"], batch["wh"])
        off_loss = masked_l1(output["reg"], batch["reg_mask"], batch["ind"], batch["reg"])

        keep = batch["reg_mask"] > 0
        embeddings = gather_at(output["id"], batch["ind"])[keep]
        embeddings = self.emb_scale * F.normalize(embeddings, dim=1)
        id_loss = self.id_criterion(self.id_classifier(embeddings), batch["ids"][keep])

        det_loss = opt["hm_weight"] * hm_loss + opt["wh_weight"] * wh_loss + opt["off_weight"] * off_loss
        loss = 0.5 * (torch.exp(-self.s_det) * det_loss + torch.exp(-self.s_id) * id_loss
                      + self.s_det + self.s_id)
        stats = {"loss": loss, "hm_loss": hm_loss, "wh_loss": wh_loss,
                 "off_loss": off_loss, "id_loss": id_loss}
        return loss, stats
