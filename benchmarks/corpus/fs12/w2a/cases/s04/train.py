import math

import torch

from gan import GAN
from lightning_lite import Trainer


def ring_dataset(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    angle = 2 * math.pi * k.float() / modes
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], 1)
    return centers + std * torch.randn(n, 2)


def main():
    torch.manual_seed(0)
    data = ring_dataset(4096)
    loader = torch.utils.data.DataLoader(data, batch_size=128, shuffle=True)
    model = GAN(latent_dim=8, data_dim=2, lr=2e-4)
    trainer = Trainer(max_epochs=2, log_every_n_steps=16)
    trainer.fit(model, loader)


if __name__ == "__main__":
    main()
