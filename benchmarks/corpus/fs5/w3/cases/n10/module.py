import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L


class TabularNet(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, p=0.3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p),
        )
        self.cls = nn.Linear(hidden, num_classes)

    def forward(self, x):
        return self.cls(self.body(x))


class LitClassifier(L.LightningModule):
    def __init__(self, in_dim=16, hidden=64, num_classes=3, lr=1e-3, label_smoothing=0.1):
        super().__init__()
        self.save_hyperparameters()
        self.net = TabularNet(in_dim, hidden, num_classes)
        self.val_correct = 0
        self.val_total = 0

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y, label_smoothing=self.hparams.label_smoothing)
        with torch.no_grad():
            acc = (logits.argmax(1) == y).float().mean()
        self.log_dict({"train_loss": loss, "train_acc": acc}, prog_bar=False)
        return loss

    def on_validation_epoch_start(self):
        self.val_correct = 0
        self.val_total = 0

    def validation_step(self, batch, batch_idx):
        x, y = batch
        probs = self(x).softmax(-1)
        probs.clamp_(min=1e-6)
        probs.div_(probs.sum(-1, keepdim=True))
        loss = F.nll_loss(probs.log(), y)
        self.val_correct += (probs.argmax(1) == y).sum().item()
        self.val_total += y.numel()
        self.log("val_loss", loss)

    def on_validation_epoch_end(self):
        self.log("val_acc", self.val_correct / max(1, self.val_total))

    def configure_optimizers(self):
        opt = torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
        return {"optimizer": opt, "lr_scheduler": sched}
