import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torchvision import models


class ImagenetTransferLearning(L.LightningModule):
    def __init__(self, num_target_classes=10, backbone="resnet18", freeze_backbone=True, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        base = getattr(models, backbone)(weights=None)
        num_filters = base.fc.in_features
        layers = list(base.children())[:-1]
        self.feature_extractor = nn.Sequential(*layers)
        if freeze_backbone:
            self.feature_extractor.eval()
        self.classifier = nn.Linear(num_filters, num_target_classes)

    def forward(self, x):
        representations = self.feature_extractor(x).flatten(1)
        return self.classifier(representations)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        acc = (logits.argmax(dim=1) == y).float().mean()
        self.log("val_acc", acc)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
