import warnings

import compat  # noqa: F401
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import WGANGP

warnings.filterwarnings("ignore", ".*does not have many workers.*")


def make_loader(n=128, dim=16, batch_size=32):
    data = torch.randn(n, dim) * 0.5 + torch.linspace(-1, 1, dim)
    return DataLoader(TensorDataset(data), batch_size=batch_size, shuffle=True)


if __name__ == "__main__":
    L.seed_everything(0, verbose=False)
    model = WGANGP()
    trainer = L.Trainer(accelerator="cpu", devices=1, max_epochs=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, make_loader())
    print({k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()})
