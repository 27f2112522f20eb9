import lightning.pytorch as pl
import torch
import torch.nn as nn
import torch.nn.functional as F

from utils import deactivate_requires_grad


class LinearClassifier(pl.LightningModule):
    def __init__(self, backbone: nn.Module, feature_dim: int, num_classes: int, lr: float = 0.1,
                 freeze_backbone: bool = True):
        super().__init__()
        self.backbone = backbone
        self.freeze_backbone = freeze_backbone
        self.classification_head = nn.Linear(feature_dim, num_classes)
        self.lr = lr
        if self.freeze_backbone:
            deactivate_requires_grad(self.backbone)

    def forward(self, images):
        if self.freeze_backbone:
            with torch.no_grad():
                features = self.backbone(images).flatten(start_dim=1)
        else:
            features = self.backbone(images).flatten(start_dim=1)
        return self.classification_head(features)

    def training_step(self, batch, batch_idx):
        images, targets = batch
        loss = F.cross_entropy(self(images), targets)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        params = [p for p in self.parameters() if p.requires_grad]
        return torch.optim.SGD(params, lr=self.lr, momentum=0.9)
