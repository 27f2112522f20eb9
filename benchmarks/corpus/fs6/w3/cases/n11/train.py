import compat  # noqa: F401

import warnings

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import WGANGP

warnings.filterwarnings("ignore", ".*does not have many workers.*")


def main():
    L.seed_everything(1234, verbose=False)
    data = torch.randn(192, 16) * 0.5 + torch.linspace(-1, 1, 16)
    loader = DataLoader(TensorDataset(data), batch_size=16, shuffle=True)
    model = WGANGP()
    trainer = L.Trainer(
        accelerator="cpu", devices=1, max_epochs=2, logger=False,
        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False,
    )
    trainer.fit(model, loader)
    with torch.no_grad():
        samples = model(torch.randn(64, model.hparams.latent_dim))
    print("sample mean", samples.mean().item(), "metrics", {k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()})


if __name__ == "__main__":
    main()
