import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning.pytorch as pl


def conv_bn_relu(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class TransferClassifier(pl.LightningModule):
    def __init__(self, num_classes=4, lr=0.05):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(
            conv_bn_relu(3, 16),
            nn.MaxPool2d(2),
            conv_bn_relu(16, 32),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.head = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.head(self.encoder(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        print(f"epoch {self.current_epoch} step {batch_idx}: loss {loss.item():.4f}")
        return loss

    def configure_optimizers(self):
        params = [p for p in self.parameters() if p.requires_grad]
        return torch.optim.SGD(params, lr=self.hparams.lr, momentum=0.9)
