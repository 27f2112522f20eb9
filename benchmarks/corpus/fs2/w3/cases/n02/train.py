import math
import warnings

import compat  # noqa: F401
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

import lightning as L

from networks import Discriminator, Generator

warnings.filterwarnings("ignore", ".*does not have many workers.*")


def ring_of_gaussians(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    angle = 2 * math.pi * k.float() / modes
    centers = torch.stack([radius * angle.cos(), radius * angle.sin()], 1)
    return centers + std * torch.randn(n, 2)


class GAN(L.LightningModule):
    def __init__(self, latent_dim=8, lr=2e-4, b1=0.5, b2=0.999):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = Generator(latent_dim)
        self.discriminator = Discriminator()

    def forward(self, z):
        return self.generator(z)

    def adversarial_loss(self, logits, target_is_real):
        target = torch.ones_like(logits) if target_is_real else torch.zeros_like(logits)
        return F.binary_cross_entropy_with_logits(logits, target)

    def training_step(self, batch, batch_idx):
        (real,) = batch
        opt_g, opt_d = self.optimizers()
        z = torch.randn(real.size(0), self.hparams.latent_dim, device=self.device)
        fake = self(z)

        self.toggle_optimizer(opt_d)
        d_loss = 0.5 * (self.adversarial_loss(self.discriminator(real), True)
                        + self.adversarial_loss(self.discriminator(fake.detach()), False))
        opt_d.zero_grad()
        self.manual_backward(d_loss)
        opt_d.step()
        self.untoggle_optimizer(opt_d)

        self.toggle_optimizer(opt_g)
        g_loss = self.adversarial_loss(self.discriminator(fake), True)
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()
        self.untoggle_optimizer(opt_g)

        self.log_dict({"d_loss": d_loss, "g_loss": g_loss}, prog_bar=True)

    def configure_optimizers(self):
        betas = (self.hparams.b1, self.hparams.b2)
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=self.hparams.lr, betas=betas)
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=self.hparams.lr, betas=betas)
        return [opt_g, opt_d]


def main():
    L.seed_everything(0, verbose=False)
    data = TensorDataset(ring_of_gaussians(2048))
    loader = DataLoader(data, batch_size=128, shuffle=True)
    model = GAN()
    trainer = L.Trainer(max_epochs=2, accelerator="cpu", devices=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, loader)
    print("d_loss", float(trainer.callback_metrics["d_loss"]),
          "g_loss", float(trainer.callback_metrics["g_loss"]))


if __name__ == "__main__":
    main()
