import compat  # noqa: F401
import torch
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

from module import WGANGP


def make_data(n=512, dim=32):
    centers = torch.randn(4, dim) * 3
    idx = torch.randint(0, 4, (n,))
    return centers[idx] + 0.3 * torch.randn(n, dim)


def main():
    L.seed_everything(0, verbose=False)
    loader = DataLoader(TensorDataset(make_data()), batch_size=32, shuffle=True)
    model = WGANGP()
    trainer = L.Trainer(max_epochs=2, accelerator="cpu", devices=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, loader)
    return model


if __name__ == "__main__":
    model = main()
