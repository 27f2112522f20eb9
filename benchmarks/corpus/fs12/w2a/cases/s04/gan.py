import torch
import torch.nn as nn
import torch.nn.functional as F

from lightning_lite import LiteModule


class Generator(nn.Module):
    def __init__(self, latent_dim, out_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent_dim, 64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, 64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, out_dim))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, in_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


class GAN(LiteModule):
    def __init__(self, latent_dim=8, data_dim=2, lr=2e-4):
        super().__init__()
        self.latent_dim = latent_dim
        self.lr = lr
        self.generator = Generator(latent_dim, data_dim)
        self.discriminator = Discriminator(data_dim)

    def configure_optimizers(self):
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=self.lr, betas=(0.5, 0.999))
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=self.lr, betas=(0.5, 0.999))
        return [opt_g, opt_d]

    def training_step(self, batch, batch_idx, optimizer_idx):
        real = batch
        z = torch.randn(real.shape[0], self.latent_dim)
        if optimizer_idx == 0:
            self.fake = self.generator(z)
            logits = self.discriminator(self.fake)
            g_loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
            self.log("g_loss", g_loss)
            return g_loss
        real_logits = self.discriminator(real)
        fake_logits = self.discriminator(self.fake.detach())
        d_loss = 0.5 * (F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits))
                        + F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits)))
        self.log("d_loss", d_loss)
        return d_loss
