import torch
from torch import nn

from ops import POOL_IMPLS


class CamEncode(nn.Module):
    def __init__(self, D, C):
        super().__init__()
        self.D, self.C = D, C
        self.trunk = nn.Sequential(
            nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        )
        self.depthnet = nn.Conv2d(32, D + C, 1)

    def forward(self, x):
        x = self.depthnet(self.trunk(x))
        depth = x[:, : self.D].softmax(dim=1)
        return depth.unsqueeze(1) * x[:, self.D:].unsqueeze(2)


class ViewTransformerLSS(nn.Module):
    def __init__(self, grid_conf, D=8, C=16, pool="cumsum"):
        super().__init__()
        self.nx = grid_conf["nx"]
        self.D, self.C = D, C
        self.camencode = CamEncode(D, C)
        self.pool = POOL_IMPLS[pool]

    def get_geometry(self, B, N, fH, fW):
        gen = torch.Generator().manual_seed(1)
        return torch.randint(0, self.nx, (B, N, self.D, fH, fW, 3), generator=gen)

    def voxel_pooling(self, geom_feats, x):
        B, N, D, H, W, C = x.shape
        Nprime = B * N * D * H * W
        nx = self.nx
        x = x.reshape(Nprime, C)
        batch_ix = torch.cat([torch.full([Nprime // B, 1], ix, dtype=torch.long) for ix in range(B)])
        geom_feats = torch.cat((geom_feats.view(Nprime, 3), batch_ix), 1)
        ranks = (geom_feats[:, 0] * (nx * nx * B) + geom_feats[:, 1] * (nx * B)
                 + geom_feats[:, 2] * B + geom_feats[:, 3])
        sorts = ranks.argsort()
        x, geom_feats, ranks = x[sorts], geom_feats[sorts], ranks[sorts]
        x, geom_feats = self.pool(x, geom_feats, ranks)
        final = torch.zeros((B, C, nx, nx, nx), device=x.device)
        final[geom_feats[:, 3], :, geom_feats[:, 2], geom_feats[:, 0], geom_feats[:, 1]] = x
        return torch.cat(final.unbind(dim=2), 1)

    def forward(self, imgs):
        B, N, _, H, W = imgs.shape
        x = self.camencode(imgs.view(B * N, 3, H, W))
        fH, fW = x.shape[-2:]
        x = x.view(B, N, self.C, self.D, fH, fW).permute(0, 1, 3, 4, 5, 2)
        geom = self.get_geometry(B, N, fH, fW)
        return self.voxel_pooling(geom, x)


class BEVDet(nn.Module):
    def __init__(self, grid_conf, pool):
        super().__init__()
        self.img_view_transformer = ViewTransformerLSS(grid_conf, pool=pool)
        nx = grid_conf["nx"]
        self.bev_encoder = nn.Sequential(
            nn.Conv2d(16 * nx, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        )
        self.head = nn.Conv2d(32, 4, 1)

    def forward(self, imgs):
        bev = self.img_view_transformer(imgs)
        return self.head(self.bev_encoder(bev))
