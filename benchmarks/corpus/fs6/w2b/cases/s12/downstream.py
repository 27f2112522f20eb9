import lightning as L
import torch
import torch.nn.functional as F
from torch import nn


class DownstreamClassifier(L.LightningModule):
    def __init__(self, encoder, n_classes, lr=1e-3):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Sequential(nn.Linear(encoder.d, encoder.d), nn.ReLU(), nn.Linear(encoder.d, n_classes))
        self.lr = lr

    def forward(self, x):
        return self.head(self.encoder(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)


class EncoderWarmup(L.Callback):
    """Train the head alone first, then fine-tune the whole network."""

    def __init__(self, unfreeze_at_epoch):
        self.unfreeze_at_epoch = unfreeze_at_epoch

    def on_train_epoch_start(self, trainer, pl_module):
        if trainer.current_epoch < self.unfreeze_at_epoch:
            pl_module.encoder.set_trainable(False)
        else:
            pl_module.encoder.set_trainable(True)
