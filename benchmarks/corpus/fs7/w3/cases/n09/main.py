import compat  # noqa: F401

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import GAN


class ToyDataModule(L.LightningDataModule):
    def __init__(self, n=256, dim=16, batch_size=32):
        super().__init__()
        self.n, self.dim, self.batch_size = n, dim, batch_size

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(0)
        self.train_set = TensorDataset(torch.tanh(torch.randn(self.n, self.dim, generator=g)))

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)


def cli_main():
    L.seed_everything(0, verbose=False)
    dm = ToyDataModule()
    model = GAN(latent_dim=8, data_dim=16)
    trainer = L.Trainer(
        accelerator="cpu",
        max_epochs=2,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, datamodule=dm)
    print({k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()})
    return model


if __name__ == "__main__":
    model = cli_main()
