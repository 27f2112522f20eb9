import compat  # noqa: F401
import lightning.pytorch as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp_backbone(in_dim, feat_dim):
    return nn.Sequential(
        nn.Linear(in_dim, 64), nn.BatchNorm1d(64), nn.ReLU(),
        nn.Linear(64, feat_dim), nn.BatchNorm1d(feat_dim), nn.ReLU(),
    )


class InvarianceSSL(pl.LightningModule):
    def __init__(self, in_dim=24, feat_dim=32, proj_dim=16, noise=0.1, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.backbone = mlp_backbone(in_dim, feat_dim)
        self.projector = nn.Sequential(nn.Linear(feat_dim, 32), nn.ReLU(), nn.Linear(32, proj_dim))

    def augment(self, x):
        return x + self.hparams.noise * torch.randn_like(x)

    def training_step(self, batch, batch_idx):
        x, _ = batch
        z1 = self.projector(self.backbone(self.augment(x)))
        z2 = self.projector(self.backbone(self.augment(x)))
        inv = F.mse_loss(z1, z2)
        std = torch.sqrt(z1.var(dim=0) + 1e-4)
        var = F.relu(1.0 - std).mean()
        loss = inv + var
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, _ = batch
        z = self.projector(self.backbone(x))
        self.log("val_std", z.std(dim=0).mean())

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
