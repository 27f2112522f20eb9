import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.callbacks import Callback


class OnlineLinearProbe(Callback):
    """Trains a linear classifier on frozen backbone features during validation."""

    def __init__(self, feat_dim, num_classes, every_n_epochs=1, lr=1e-2):
        super().__init__()
        self.feat_dim = feat_dim
        self.num_classes = num_classes
        self.every_n_epochs = every_n_epochs
        self.lr = lr
        self.correct = 0
        self.total = 0

    def setup(self, trainer, pl_module, stage):
        self.probe = nn.Linear(self.feat_dim, self.num_classes).to(pl_module.device)
        self.optimizer = torch.optim.SGD(self.probe.parameters(), lr=self.lr, momentum=0.9)

    def _active(self, trainer):
        if trainer.sanity_checking:
            return False
        return (trainer.current_epoch + 1) % self.every_n_epochs == 0

    def on_validation_epoch_start(self, trainer, pl_module):
        self.correct = 0
        self.total = 0

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        if not self._active(trainer):
            return
        x, y = batch
        feats = pl_module.backbone(x).detach()
        with torch.enable_grad():
            logits = self.probe(feats)
            loss = F.cross_entropy(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        self.correct += (logits.argmax(dim=1) == y).sum().item()
        self.total += y.numel()

    def on_validation_epoch_end(self, trainer, pl_module):
        if self.total:
            pl_module.log("probe_acc", self.correct / self.total)
