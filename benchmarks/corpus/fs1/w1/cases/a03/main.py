import compat  # noqa: F401
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from framework import PSENet


def make_loader(n=12, size=32, batch_size=4):
    g = torch.Generator().manual_seed(1)
    images = torch.rand(n, 3, size, size, generator=g) ** 2.2
    return DataLoader(TensorDataset(images), batch_size=batch_size, shuffle=False)


def main():
    L.seed_everything(0, verbose=False)
    model = PSENet()
    trainer = L.Trainer(max_epochs=1, accelerator="cpu", logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, make_loader())
    print("done")


if __name__ == "__main__":
    main()
