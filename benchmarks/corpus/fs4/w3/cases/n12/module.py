import compat  # noqa: F401
import lightning as L
import timm
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(L.LightningModule):
    def __init__(self, arch="test_resnet", num_classes=4, lr=1e-3, backbone_lr_mult=0.1, dropout=0.2):
        super().__init__()
        self.save_hyperparameters()
        self.model = timm.create_model(arch, pretrained=False, num_classes=0)
        self.model.conv1[0] = nn.Conv2d(1, 16, kernel_size=3, stride=1, padding=1, bias=False)
        self.model.maxpool = nn.Identity()
        self.head = nn.Sequential(nn.Dropout(dropout), nn.Linear(self.model.num_features, num_classes))

    def forward(self, x):
        return self.head(self.model(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y))
        self.log("val_acc", (logits.argmax(1) == y).float().mean())

    def configure_optimizers(self):
        backbone = [p for p in self.model.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(
            [
                {"params": backbone, "lr": self.hparams.lr * self.hparams.backbone_lr_mult},
                {"params": self.head.parameters(), "lr": self.hparams.lr},
            ],
            weight_decay=1e-4,
        )
        scheduler = torch.optim.lr_scheduler.OneCycleLR(
            optimizer,
            max_lr=[g["lr"] for g in optimizer.param_groups],
            total_steps=self.trainer.estimated_stepping_batches,
        )
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}
