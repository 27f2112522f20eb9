import compat  # noqa: F401
import torch
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

from model import TourPolicy, tour_length

CONFIG = {
    "train_nodes": 10,
    "val_nodes": 20,
    "train_size": 64,
    "val_size": 32,
    "batch_size": 16,
    "lr": 1e-3,
    "max_epochs": 1,
}


class TSPModule(L.LightningModule):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.policy = TourPolicy()

    def training_step(self, batch, batch_idx):
        (locs,) = batch
        tour, log_likelihood = self.policy(locs, decode="sample")
        with torch.no_grad():
            greedy_tour, _ = self.policy(locs, decode="greedy")
            baseline = tour_length(locs, greedy_tour)
        cost = tour_length(locs, tour)
        advantage = cost - baseline
        loss = (advantage * log_likelihood).mean()
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        (locs,) = batch
        tour, _ = self.policy(locs, decode="greedy")
        self.log("val/cost", tour_length(locs, tour).mean())

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.cfg["lr"])


def make_loaders(cfg):
    g = torch.Generator().manual_seed(1)
    train = TensorDataset(torch.rand(cfg["train_size"], cfg["train_nodes"], 2, generator=g))
    val = TensorDataset(torch.rand(cfg["val_size"], cfg["val_nodes"], 2, generator=g))
    return (DataLoader(train, batch_size=cfg["batch_size"], shuffle=True),
            DataLoader(val, batch_size=cfg["batch_size"]))


def main():
    L.seed_everything(0, verbose=False)
    train_loader, val_loader = make_loaders(CONFIG)
    module = TSPModule(CONFIG)
    trainer = L.Trainer(max_epochs=CONFIG["max_epochs"], accelerator="cpu", devices=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
    trainer.validate(module, val_loader, verbose=False)
    trainer.fit(module, train_loader, val_loader)


if __name__ == "__main__":
    main()
