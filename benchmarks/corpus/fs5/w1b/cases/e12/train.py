import math

import compat  # noqa: F401
import torch
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

from gan import GAN


def eight_gaussians(n, scale=2.0, std=0.05):
    centers = torch.tensor([[math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)]
                            for k in range(8)]) * scale
    idx = torch.randint(0, 8, (n,))
    return centers[idx] + std * torch.randn(n, 2)


def main():
    L.seed_everything(0, verbose=False)
    data = TensorDataset(eight_gaussians(256))
    loader = DataLoader(data, batch_size=64, shuffle=True)
    model = GAN(latent_dim=8, lr=2e-4, r1_gamma=10.0, d_reg_every=4)
    trainer = L.Trainer(max_epochs=1, accelerator="cpu", devices=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, loader)
    print("done", trainer.global_step)


if __name__ == "__main__":
    main()
