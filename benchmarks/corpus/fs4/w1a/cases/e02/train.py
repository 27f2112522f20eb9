import compat  # noqa: F401
import argparse

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import SequenceClassifier


def make_loader(n, seq_len, shuffle, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, seq_len, 3, generator=g)
    y = (x[:, :, 0].mean(dim=1) > 0).long() + 2 * (x[:, -8:, 1].mean(dim=1) > 0).long()
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=shuffle)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seq-len", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--limit-batches", type=int, default=4)
    parser.add_argument("--skip-initial-eval", action="store_true")
    args = parser.parse_args()

    L.seed_everything(0, verbose=False)
    model = SequenceClassifier()
    trainer = L.Trainer(
        max_epochs=args.epochs,
        accelerator="cpu",
        devices=1,
        limit_train_batches=args.limit_batches,
        limit_val_batches=2,
        num_sanity_val_steps=0,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    train_loader = make_loader(128, args.seq_len, True, 1)
    val_loader = make_loader(64, args.seq_len, False, 2)
    if not args.skip_initial_eval:
        trainer.validate(model, val_loader, verbose=False)
    trainer.fit(model, train_loader, val_loader)


if __name__ == "__main__":
    main()
