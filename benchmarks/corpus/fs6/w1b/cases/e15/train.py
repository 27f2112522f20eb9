import compat  # noqa: F401
import lightning as L
import torch

from data import make_loaders
from pinn import HeatPINN


def main():
    L.seed_everything(0, verbose=False)
    torch.set_num_threads(2)
    train_loader, val_loader = make_loaders()
    model = HeatPINN(alpha=0.1, lr=1e-3)
    trainer = L.Trainer(
        max_epochs=1,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    trainer.fit(model, train_loader, val_loader)
    metrics = trainer.validate(model, val_loader, verbose=False)
    print(metrics)


if __name__ == "__main__":
    main()
