import torch
import torch.nn as nn
import torch.nn.functional as F


def weighted_gap(feat, mask):
    mask = F.interpolate(mask, size=feat.shape[-2:], mode="bilinear", align_corners=True)
    area = mask.sum(dim=(2, 3), keepdim=True) + 5e-4
    return (feat * mask).sum(dim=(2, 3), keepdim=True) / area


class OneModel(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.shot = args["shot"]
        reduce_dim = args["reduce_dim"]
        self.layer0 = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.layer1 = nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU())
        for p in list(self.layer0.parameters()) + list(self.layer1.parameters()):
            p.requires_grad_(False)
        self.down_query = nn.Sequential(nn.Conv2d(64, reduce_dim, 1, bias=False), nn.Dropout2d(p=0.5))
        self.down_supp = nn.Sequential(nn.Conv2d(64, reduce_dim, 1, bias=False), nn.Dropout2d(p=0.5))
        self.init_merge = nn.Sequential(nn.Conv2d(reduce_dim * 2 + 1, reduce_dim, 1, bias=False), nn.ReLU())
        self.cls_meta = nn.Sequential(
            nn.Conv2d(reduce_dim, reduce_dim, 3, padding=1, bias=False), nn.ReLU(), nn.Conv2d(reduce_dim, 2, 1)
        )
        if self.shot > 1:
            self.kshot_trans_dim = args["kshot_trans_dim"]
            self.kshot_rw = nn.Sequential(
                nn.Conv2d(self.shot, self.kshot_trans_dim, 1, bias=False),
                nn.ReLU(),
                nn.Conv2d(self.kshot_trans_dim, self.shot, 1, bias=False),
            )

    def backbone(self, x):
        with torch.no_grad():
            return self.layer1(self.layer0(x))

    def forward(self, x, s_x, s_y):
        query_feat = self.down_query(self.backbone(x))
        protos, sims = [], []
        for i in range(self.shot):
            supp_feat = self.down_supp(self.backbone(s_x[:, i]))
            mask = (s_y[:, i] == 1).float().unsqueeze(1)
            proto = weighted_gap(supp_feat, mask)
            protos.append(proto)
            sims.append(F.cosine_similarity(query_feat, proto, dim=1).mean(dim=(1, 2)))
        protos = torch.stack(protos, dim=1)
        if self.shot > 1:
            sims = torch.stack(sims, dim=1)[:, :, None, None]
            weights = self.kshot_rw(sims).softmax(dim=1)
            proto = (protos * weights.unsqueeze(2)).sum(dim=1)
        else:
            proto = protos[:, 0]
        prior = F.cosine_similarity(query_feat, proto, dim=1).unsqueeze(1)
        merged = self.init_merge(torch.cat([query_feat, proto.expand_as(query_feat), prior], dim=1))
        out = self.cls_meta(merged)
        return F.interpolate(out, size=x.shape[-2:], mode="bilinear", align_corners=True)

    def get_optim(self, model, args, LR):
        optimizer = torch.optim.SGD(
            [
                {"params": model.down_query.parameters()},
                {"params": model.down_supp.parameters()},
                {"params": model.init_merge.parameters()},
                {"params": model.cls_meta.parameters()},
            ],
            lr=LR, momentum=args["momentum"], weight_decay=args["weight_decay"],
        )
        return optimizer
