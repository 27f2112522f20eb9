import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _sigmoid(x):
    return torch.clamp(x.sigmoid(), min=1e-4, max=1 - 1e-4)


def focal_loss(pred, gt):
    pos = gt.eq(1).float()
    neg = 1 - pos
    neg_w = torch.pow(1 - gt, 4)
    pos_loss = (torch.log(pred) * torch.pow(1 - pred, 2) * pos).sum()
    neg_loss = (torch.log(1 - pred) * torch.pow(pred, 2) * neg_w * neg).sum()
    num_pos = pos.sum()
    return -(pos_loss + neg_loss) / num_pos.clamp(min=1)


def gather_feat(feat, ind):
    b, c = feat.shape[:2]
    feat = feat.view(b, c, -1).permute(0, 2, 1)
    return feat.gather(1, ind.unsqueeze(2).expand(-1, -1, c))


class MotLoss(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.opt = opt
        self.emb_dim = opt["reid_dim"]
        self.nID = opt["nID"]
        self.classifier = nn.Linear(self.emb_dim, self.nID)
        self.emb_scale = math.sqrt(2) * math.log(self.nID - 1)
        self.s_det = nn.Parameter(-1.85 * torch.ones(1))
        self.s_id = nn.Parameter(-1.05 * torch.ones(1))

    def forward(self, outputs, batch):
        output = outputs[0]
        hm_loss = focal_loss(_sigmoid(output["hm"]), batch["hm"])
        wh_loss = F.l1_loss(gather_feat(output["wh"], batch["ind"]), batch["wh"])
        det_loss = hm_loss + 0.1 * wh_loss
        id_head = gather_feat(output["id"], batch["ind"]).flatten(0, 1)
        id_head = self.emb_scale * F.normalize(id_head, dim=1)
        id_loss = F.cross_entropy(self.classifier(id_head), batch["ids"].flatten())
        loss = torch.exp(-self.s_det) * det_loss + torch.exp(-self.s_id) * id_loss + (self.s_det + self.s_id)
        return 0.5 * loss, {"loss": loss, "hm_loss": hm_loss, "wh_loss": wh_loss, "id_loss": id_loss}


_loss_factory = {"mot": MotLoss}
