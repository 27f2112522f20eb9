import compat  # noqa: F401
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import MultipleNegativesContrastiveLoss
from xbm import XbmBuffer


class Encoder(nn.Module):
    def __init__(self, in_dim, emb_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, emb_dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


class SimilarityModel(L.LightningModule):
    def __init__(self, in_dim, emb_dim, xbm_config, lr=1e-3):
        super().__init__()
        self.encoder = Encoder(in_dim, emb_dim)
        self.loss = MultipleNegativesContrastiveLoss()
        self._xbm_config = xbm_config
        self._xbm_buffer = XbmBuffer(xbm_config, emb_dim) if xbm_config is not None else None
        self.lr = lr

    def training_step(self, batch, batch_idx):
        features, targets = batch
        embeddings = self.encoder(features)
        loss = self.loss(embeddings, targets)

        if self._xbm_buffer is not None:
            if self.global_step >= self._xbm_config.start_iteration:
                memory_embeddings, memory_targets = self._xbm_buffer.get()
                xbm_loss = self.loss.xbm_loss(embeddings, targets, memory_embeddings, memory_targets)
                loss = loss + self._xbm_config.weight * xbm_loss
            self._xbm_buffer.queue(embeddings.detach(), targets)

        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)
