"""Fit the tabular classifier with the Lightning Trainer on synthetic data."""
import compat  # noqa: F401
import argparse
import warnings

import lightning.pytorch as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import TabularClassifier

warnings.filterwarnings("ignore")


def make_loader(n, num_classes, shuffle):
    x = torch.randn(n, 20)
    y = torch.randint(0, num_classes, (n,))
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=shuffle)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--metrics", nargs="+", default=["acc"])
    parser.add_argument("--metric-every", type=int, default=2)
    args = parser.parse_args()

    pl.seed_everything(0, verbose=False)
    model = TabularClassifier(num_classes=6, train_metrics=tuple(args.metrics),
                              metric_every=args.metric_every)
    trainer = pl.Trainer(max_epochs=args.epochs, accelerator="cpu", logger=False,
                         enable_checkpointing=False, enable_progress_bar=False,
                         enable_model_summary=False, num_sanity_val_steps=0)
    trainer.fit(model, make_loader(96, 6, True), make_loader(32, 6, False))
    print("final metrics:", {k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})


if __name__ == "__main__":
    main()
