import compat  # noqa: F401
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import LOSSES


class DensityRegressor(L.LightningModule):
    def __init__(self, loss="gkl", lr=1e-3, width=16):
        super().__init__()
        self.save_hyperparameters()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=2, dilation=2), nn.ReLU(),
        )
        self.head = nn.Conv2d(width, 1, 1)
        self.criterion = LOSSES[loss]

    def forward(self, x):
        return F.softplus(self.head(self.features(x))) + 1e-6

    def training_step(self, batch, batch_idx):
        image, density = batch
        pred = self(image)
        loss = self.criterion(pred, density)
        mae = (pred.sum(dim=(1, 2, 3)) - density.sum(dim=(1, 2, 3))).abs().mean()
        self.log("train/loss", loss, prog_bar=False)
        self.log("train/mae", mae, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
