import compat  # noqa: F401
import warnings

import torch
import lightning as L

from data import make_loaders
from model import ForceFieldModule

warnings.filterwarnings("ignore")

CONFIG = {
    "n_atoms": 8,
    "hidden": 64,
    "lr": 1e-3,
    "n_train": 128,
    "n_val": 64,
    "batch_size": 32,
    "max_epochs": 1,
}


def main(cfg):
    L.seed_everything(0, verbose=False)
    torch.manual_seed(0)
    train_dl, val_dl, test_dl = make_loaders(cfg)
    module = ForceFieldModule(n_atoms=cfg["n_atoms"], hidden=cfg["hidden"], lr=cfg["lr"])
    trainer = L.Trainer(
        max_epochs=cfg["max_epochs"],
        accelerator="cpu",
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(module, train_dl, val_dl)
    results = trainer.test(module, test_dl, verbose=False)
    print(results)


if __name__ == "__main__":
    main(CONFIG)
