import lightning.pytorch as pl
import torch
import torch.nn.functional as F
from torch import nn


class ConvEncoder(nn.Module):
    def __init__(self, in_ch=1, width=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(in_ch, width, 3, padding=1), nn.BatchNorm2d(width),
                                  nn.ReLU())
        self.block1 = nn.Sequential(nn.Conv2d(width, width * 2, 3, stride=2, padding=1),
                                    nn.BatchNorm2d(width * 2), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(width * 2, width * 4, 3, stride=2, padding=1),
                                    nn.BatchNorm2d(width * 4), nn.ReLU())
        self.out_dim = width * 4

    def forward(self, x):
        return self.block2(self.block1(self.stem(x)))


class SegClassifier(pl.LightningModule):
    def __init__(self, num_classes=3, lr=1e-3, freeze_stem=False):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = ConvEncoder()
        self.head = nn.Linear(self.encoder.out_dim, num_classes)
        if freeze_stem:
            for p in self.encoder.stem.parameters():
                p.requires_grad = False

    def forward(self, x):
        feats = self.encoder(x)
        return self.head(feats.mean(dim=(2, 3)))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        params = [p for p in self.parameters() if p.requires_grad]
        return torch.optim.AdamW(params, lr=self.hparams.lr)
