import compat  # noqa: F401
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import Block


class RotaryLM(L.LightningModule):
    def __init__(self, vocab_size=128, dim=64, n_head=4, n_layer=2, lr=3e-4):
        super().__init__()
        self.save_hyperparameters()
        self.embedding = nn.Embedding(vocab_size, dim)
        self.blocks = nn.ModuleList([Block(dim, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, input_ids):
        x = self.embedding(input_ids)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.ln_f(x))

    def _loss(self, batch):
        input_ids = batch[0]
        logits = self(input_ids[:, :-1])
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), input_ids[:, 1:].reshape(-1))

    def training_step(self, batch, batch_idx):
        loss = self._loss(batch)
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        self.log("val/loss", self._loss(batch))

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr, betas=(0.9, 0.95), weight_decay=0.1)
