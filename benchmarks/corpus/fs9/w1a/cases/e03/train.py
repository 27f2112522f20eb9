import compat  # noqa: F401
import argparse
import warnings

import lightning.pytorch as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import SegClassifier
from pruning import PruningCallback

warnings.filterwarnings("ignore")


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--freeze-stem", action="store_true", default=True)
    p.add_argument("--final-sparsity", type=float, default=0.5)
    return p.parse_args()


def main():
    args = parse_args()
    pl.seed_everything(0, verbose=False)
    x = torch.randn(64, 1, 32, 32)
    y = torch.randint(0, 3, (64,))
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)

    model = SegClassifier(num_classes=3, lr=args.lr, freeze_stem=args.freeze_stem)
    pruning = PruningCallback(final_sparsity=args.final_sparsity, end_epoch=args.epochs)
    trainer = pl.Trainer(max_epochs=args.epochs, accelerator="cpu", devices=1,
                         callbacks=[pruning], logger=False, enable_checkpointing=False,
                         enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, loader)


if __name__ == "__main__":
    main()
