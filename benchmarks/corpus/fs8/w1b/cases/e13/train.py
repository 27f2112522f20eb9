import compat  # noqa: F401
import lightning as L
import torch

from data import make_loaders
from model import ForceFieldModule

CONFIG = {
    "n_atoms": 4,
    "hidden": 64,
    "lr": 1e-3,
    "max_epochs": 2,
    "limit_train_batches": 4,
    "limit_val_batches": 2,
}


def main():
    L.seed_everything(0, verbose=False)
    torch.set_num_threads(1)
    train_loader, val_loader = make_loaders(CONFIG["n_atoms"])
    model = ForceFieldModule(n_atoms=CONFIG["n_atoms"], hidden=CONFIG["hidden"], lr=CONFIG["lr"])
    trainer = L.Trainer(
        accelerator="cpu",
        max_epochs=CONFIG["max_epochs"],
        limit_train_batches=CONFIG["limit_train_batches"],
        limit_val_batches=CONFIG["limit_val_batches"],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, train_loader, val_loader)
    metrics = trainer.validate(model, val_loader, verbose=False)
    print({k: round(float(v), 5) for k, v in metrics[0].items()})


if __name__ == "__main__":
    main()
