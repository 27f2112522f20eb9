import torch

from logging_utils import ScalarImageLogger
from trainer import Trainer
from vae import VAE, VAELoss


def make_loader(n_batches, batch_size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n_batches):
        yield (torch.rand(batch_size, 1, 28, 28, generator=g) > 0.7).float()


def main():
    torch.manual_seed(0)
    vae = VAE(latent=8)
    trainer = Trainer(vae, VAELoss(beta=1.0),
                      logger=ScalarImageLogger(log_scalars_every=1, log_images_every=5))
    trainer.build_optimizer("Adam", lr=1e-3)
    trainer.train_for(make_loader(12), num_iterations=12)
    for it, loss in trainer.logger.scalars[-3:]:
        print(f"iter {it} loss {loss:.2f}")


if __name__ == "__main__":
    main()
