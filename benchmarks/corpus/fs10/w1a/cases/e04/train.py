import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

from swarm import SwarmCallback

HPARAMS = {"lr": 1e-3, "batch_size": 4, "num_samples": 16, "sync_frequency": 3, "max_epochs": 1}


class ClassifierModule(L.LightningModule):
    def __init__(self, hparams):
        super().__init__()
        self.save_hyperparameters(hparams)
        self.model = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 512, 3, padding=1), nn.BatchNorm2d(512), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 2),
        )
        self.swarm = None

    def forward(self, x):
        return self.model(x)

    def training_step(self, batch, batch_idx):
        x, y = batch["source"], batch["target"]
        y_hat = self(x)
        loss = F.cross_entropy(y_hat, y)
        self.swarm.on_batch_end()
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class DictDataset(TensorDataset):
    def __getitem__(self, index):
        x, y = super().__getitem__(index)
        return {"source": x, "target": y}


def make_peers(model, n_peers=2):
    peers = []
    for _ in range(n_peers):
        state = {k: v.clone() + 0.01 * torch.randn_like(v) if v.is_floating_point() else v.clone()
                 for k, v in model.state_dict().items()}
        peers.append(state)
    return peers


def main():
    L.seed_everything(0)
    module = ClassifierModule(HPARAMS)
    module.swarm = SwarmCallback(module.model, HPARAMS["sync_frequency"], make_peers(module.model))
    data = DictDataset(torch.randn(HPARAMS["num_samples"], 3, 16, 16),
                       torch.randint(0, 2, (HPARAMS["num_samples"],)))
    loader = DataLoader(data, batch_size=HPARAMS["batch_size"], shuffle=True)
    trainer = L.Trainer(max_epochs=HPARAMS["max_epochs"], accelerator="cpu", logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(module, loader)


if __name__ == "__main__":
    main()
