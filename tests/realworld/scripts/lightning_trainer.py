"""A LightningModule (small MLP classifier) trained by lightning's Trainer for 4 steps on CPU
with synthetic data; no logger, checkpoints, progress bar or model summary."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import lightning as L
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Classifier(L.LightningModule):
    def __init__(self, features=16, hidden=32, classes=4):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(features, hidden), nn.LayerNorm(hidden), nn.GELU(),
                                 nn.Dropout(0.1), nn.Linear(hidden, classes))
        self.losses = []

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.losses.append(loss.detach())
        return loss

    def configure_optimizers(self):
        optimizer = torch.optim.AdamW(self.parameters(), lr=1e-2)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}


def main():
    L.seed_everything(0, verbose=False)
    x = torch.randn(64, 16)
    y = (x[:, :4].argmax(1)).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True, num_workers=0)
    model = Classifier()
    trainer = L.Trainer(max_steps=4, accelerator="cpu", devices=1, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, loader)
    for step, loss in enumerate(model.losses):
        print(f"step {step} loss {loss.item():.4f}")
    print("global_step", trainer.global_step)


if __name__ == "__main__":
    main()
