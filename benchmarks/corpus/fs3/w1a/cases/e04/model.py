"""LightningModule for a tabular multi-class classifier."""
import lightning.pytorch as pl
import torch
import torch.nn as nn
import torch.nn.functional as F

import metrics

METRICS = {"acc": metrics.accuracy, "f1": metrics.f1_score}


class TabularClassifier(pl.LightningModule):
    def __init__(self, in_features=20, hidden=64, num_classes=6, lr=1e-3,
                 train_metrics=("acc",), metric_every=2):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
            nn.Dropout(0.1), nn.Linear(hidden, num_classes),
        )

    def forward(self, x):
        return self.net(x)

    def _metrics(self, y_hat, y, prefix):
        out = {}
        for name in self.hparams.train_metrics:
            out[f"{prefix}_{name}"] = METRICS[name](y_hat, y, num_classes=self.hparams.num_classes)
        return out

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        loss = F.cross_entropy(y_hat, y)
        logs = {"train_loss": loss.detach()}
        if batch_idx % self.hparams.metric_every == 1:
            logs.update(self._metrics(y_hat, y, "train"))
        self.log_dict(logs)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        self.log("val_loss", F.cross_entropy(y_hat, y))
        self.log_dict(self._metrics(y_hat, y, "val"))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
