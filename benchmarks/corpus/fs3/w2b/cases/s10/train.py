import compat  # noqa: F401
import argparse
import warnings

import lightning as L
import torch
from torch.utils.data import DataLoader

from data import CrowdPatches
from module import DensityRegressor

warnings.filterwarnings("ignore")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--loss", default="gkl", choices=["mse", "gkl"])
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--max-steps", type=int, default=6)
    args = parser.parse_args()

    L.seed_everything(0, verbose=False)
    loader = DataLoader(CrowdPatches(n=12), batch_size=4, shuffle=True)
    model = DensityRegressor(loss=args.loss, lr=args.lr)
    trainer = L.Trainer(
        max_steps=args.max_steps, accelerator="cpu", devices=1, logger=False,
        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False,
    )
    trainer.fit(model, loader)
    print("final train/loss", float(trainer.callback_metrics["train/loss"]))
    return model


if __name__ == "__main__":
    model = main()
