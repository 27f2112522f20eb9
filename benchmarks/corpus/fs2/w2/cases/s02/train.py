import compat  # noqa: F401
import torch
import lightning.pytorch as pl
from torch.utils.data import DataLoader, TensorDataset

from callbacks import build_callbacks
from module import TransferClassifier

CONFIG = {
    "max_epochs": 3,
    "batch_size": 8,
    "callbacks": {
        "freeze_unfreeze": {"unfreeze_at_epoch": 2, "train_bn": False},
    },
}


def make_loader(n=32):
    x = torch.randn(n, 3, 16, 16)
    y = torch.randint(0, 4, (n,))
    return DataLoader(TensorDataset(x, y), batch_size=CONFIG["batch_size"], shuffle=True)


if __name__ == "__main__":
    pl.seed_everything(0, verbose=False)
    model = TransferClassifier()
    trainer = pl.Trainer(
        max_epochs=CONFIG["max_epochs"],
        accelerator="cpu",
        devices=1,
        callbacks=build_callbacks(CONFIG["callbacks"]),
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, make_loader())
