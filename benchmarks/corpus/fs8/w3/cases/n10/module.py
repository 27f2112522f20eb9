import compat  # noqa: F401
import copy
import math

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(in_dim, hidden, out_dim):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(inplace=True), nn.Linear(hidden, out_dim))


class BYOL(L.LightningModule):
    def __init__(self, in_dim=24, feat_dim=32, proj_dim=16, lr=1e-3, base_tau=0.99, max_steps=20):
        super().__init__()
        self.save_hyperparameters()
        self.online_backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(inplace=True), nn.Linear(64, feat_dim))
        self.online_projector = mlp(feat_dim, 64, proj_dim)
        self.predictor = mlp(proj_dim, 64, proj_dim)
        self.target_backbone = copy.deepcopy(self.online_backbone)
        self.target_projector = copy.deepcopy(self.online_projector)
        for p in list(self.target_backbone.parameters()) + list(self.target_projector.parameters()):
            p.requires_grad = False
        self.tau = base_tau
        self.last_step = 0

    def augment(self, x):
        return x * (1 + 0.1 * torch.randn_like(x)) + 0.05 * torch.randn_like(x)

    @staticmethod
    def regression_loss(p, z):
        p = F.normalize(p, dim=-1)
        z = F.normalize(z, dim=-1)
        return 2 - 2 * (p * z).sum(-1)

    def training_step(self, batch, batch_idx):
        x, _ = batch
        v1, v2 = self.augment(x), self.augment(x)
        p1 = self.predictor(self.online_projector(self.online_backbone(v1)))
        p2 = self.predictor(self.online_projector(self.online_backbone(v2)))
        with torch.no_grad():
            z1 = self.target_projector(self.target_backbone(v1))
            z2 = self.target_projector(self.target_backbone(v2))
        loss = (self.regression_loss(p1, z2.detach()) + self.regression_loss(p2, z1.detach())).mean()
        self.log("train_loss", loss)
        return loss

    def on_train_batch_end(self, outputs, batch, batch_idx):
        step = self.trainer.global_step
        if step <= self.last_step:
            return
        self.last_step = step
        self.tau = 1 - (1 - self.hparams.base_tau) * (math.cos(math.pi * step / self.hparams.max_steps) + 1) / 2
        with torch.no_grad():
            for online, target in ((self.online_backbone, self.target_backbone), (self.online_projector, self.target_projector)):
                for po, pt in zip(online.parameters(), target.parameters()):
                    pt.mul_(self.tau).add_(po, alpha=1 - self.tau)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        feats = self.online_backbone(x)
        centroids = torch.stack([feats[y == c].mean(0) if (y == c).any() else feats.mean(0) for c in range(3)])
        pred = torch.cdist(feats, centroids).argmin(1)
        self.log("val_acc", (pred == y).float().mean())

    def configure_optimizers(self):
        params = list(self.online_backbone.parameters()) + list(self.online_projector.parameters()) + list(self.predictor.parameters())
        return torch.optim.Adam(params, lr=self.hparams.lr)
