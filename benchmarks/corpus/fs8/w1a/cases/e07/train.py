import warnings

import compat  # noqa: F401

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import TextClassifier

warnings.filterwarnings("ignore")

CONFIG = {
    "model": {"vocab_size": 1000, "embed_dim": 64, "num_classes": 4},
    "optim": {"optimizer": "lion", "lr": 1e-4, "weight_decay": 0.1},
    "trainer": {"max_steps": 4, "accelerator": "cpu", "devices": 1, "logger": False,
                "enable_checkpointing": False, "enable_progress_bar": False,
                "enable_model_summary": False, "limit_val_batches": 2},
    "batch_size": 8,
}


def make_loader(n, cfg, shuffle):
    tokens = torch.randint(0, cfg["model"]["vocab_size"], (n, 24))
    labels = torch.randint(0, cfg["model"]["num_classes"], (n,))
    return DataLoader(TensorDataset(tokens, labels), batch_size=cfg["batch_size"], shuffle=shuffle)


def main(cfg):
    L.seed_everything(7, verbose=False)
    model = TextClassifier(**cfg["model"], **cfg["optim"])
    trainer = L.Trainer(**cfg["trainer"])
    trainer.fit(model, make_loader(64, cfg, True), make_loader(16, cfg, False))


if __name__ == "__main__":
    main(CONFIG)
