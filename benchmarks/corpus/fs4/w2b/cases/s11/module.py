import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torchvision.models import resnet18


class TransferLearningModel(L.LightningModule):
    def __init__(self, num_classes=4, lr=1e-3, milestones=(5, 10)):
        super().__init__()
        self.save_hyperparameters()
        backbone = resnet18(weights=None)
        self.feature_extractor = nn.Sequential(*list(backbone.children())[:-1])
        self.fc = nn.Sequential(nn.Linear(512, 64), nn.ReLU(), nn.Linear(64, num_classes))

    def forward(self, x):
        x = self.feature_extractor(x).flatten(1)
        return self.fc(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        acc = (self(x).argmax(1) == y).float().mean()
        self.log("val_acc", acc)

    def configure_optimizers(self):
        trainable = filter(lambda p: p.requires_grad, self.parameters())
        optimizer = torch.optim.Adam(trainable, lr=self.hparams.lr)
        scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=list(self.hparams.milestones), gamma=0.1)
        return [optimizer], [scheduler]
