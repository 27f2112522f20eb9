import warnings

import torch
from torch.utils.data import DataLoader, TensorDataset

import compat  # noqa: F401
import lightning as L

from module import LitClassifier

warnings.filterwarnings("ignore", ".*does not have many workers.*")
warnings.filterwarnings("ignore", ".*LeafSpec.*")


def make_loaders(n_train=192, n_val=64, in_dim=16, num_classes=3, batch_size=32):
    w = torch.randn(in_dim, num_classes)
    xs = torch.randn(n_train + n_val, in_dim)
    ys = (xs @ w).argmax(1)
    train = TensorDataset(xs[:n_train], ys[:n_train])
    val = TensorDataset(xs[n_train:], ys[n_train:])
    return (DataLoader(train, batch_size=batch_size, shuffle=True),
            DataLoader(val, batch_size=batch_size))


def main():
    L.seed_everything(7, verbose=False)
    train_loader, val_loader = make_loaders()
    model = LitClassifier()
    trainer = L.Trainer(
        max_epochs=3,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=1,
    )
    trainer.fit(model, train_loader, val_loader)
    print("val_acc", float(trainer.callback_metrics["val_acc"]))
    return model, trainer


if __name__ == "__main__":
    model, trainer = main()
