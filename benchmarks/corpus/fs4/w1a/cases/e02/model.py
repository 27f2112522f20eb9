import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F

from s4 import S4DLayer


class SequenceClassifier(L.LightningModule):
    def __init__(self, d_input=3, d_model=32, n_layers=2, n_classes=4, lr=3e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Linear(d_input, d_model)
        self.layers = nn.ModuleList([S4DLayer(d_model) for _ in range(n_layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.decoder = nn.Linear(d_model, n_classes)

    def forward(self, x):
        h = self.encoder(x)
        for layer, norm in zip(self.layers, self.norms):
            h = norm(h + layer(h))
        return self.decoder(h.mean(dim=1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        acc = (logits.argmax(-1) == y).float().mean()
        self.log("val_acc", acc)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)
