import compat  # noqa: F401
import logging
import warnings

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import BYOL

warnings.filterwarnings("ignore")
logging.getLogger("lightning").setLevel(logging.ERROR)
logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)


def make_loader(n, shuffle):
    x = torch.randn(n, 24)
    y = torch.randint(0, 3, (n,))
    x[:, :3] += 2.0 * torch.nn.functional.one_hot(y, 3)
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=shuffle, drop_last=shuffle)


def main():
    L.seed_everything(0, verbose=False)
    model = BYOL(max_steps=8)
    trainer = L.Trainer(
        accelerator="cpu",
        devices=1,
        max_epochs=1,
        accumulate_grad_batches=2,
        limit_train_batches=8,
        limit_val_batches=2,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, make_loader(128, True), make_loader(32, False))
    print("final tau", round(model.tau, 5), "metrics", {k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})
    return model, trainer


if __name__ == "__main__":
    model, trainer = main()
