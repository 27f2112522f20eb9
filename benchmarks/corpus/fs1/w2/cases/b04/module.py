import torch
import torch.nn as nn
import torch.nn.functional as F

import lightning as L


class Classifier(L.LightningModule):
    def __init__(self, n_features=32, hidden=64, lr=1e-2):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Linear(n_features, hidden), nn.GELU(), nn.LayerNorm(hidden))
        self.head = nn.Linear(hidden, 2)

    def on_fit_start(self):
        num_classes = self.trainer.datamodule.num_classes
        if self.head.out_features != num_classes:
            self.head = nn.Linear(self.hparams.hidden, num_classes)

    def forward(self, x):
        return self.head(self.encoder(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=False)
        if batch_idx % 4 == 0:
            print(f"epoch {self.current_epoch} batch {batch_idx}  loss {loss.item():.4f}")
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
