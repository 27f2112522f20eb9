import torch
import lightning as L

from losses import d_logistic_loss, g_nonsaturating_loss, r1_penalty
from nets import Discriminator, Generator


class GAN(L.LightningModule):
    def __init__(self, latent_dim=8, lr=2e-4, r1_gamma=10.0, d_reg_every=4):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = Generator(latent_dim)
        self.discriminator = Discriminator()

    def configure_optimizers(self):
        hp = self.hparams
        ratio = hp.d_reg_every / (hp.d_reg_every + 1) if hp.d_reg_every else 1.0
        g_opt = torch.optim.Adam(self.generator.parameters(), lr=hp.lr, betas=(0.0, 0.99))
        d_opt = torch.optim.Adam(self.discriminator.parameters(), lr=hp.lr * ratio,
                                 betas=(0.0, 0.99 ** ratio))
        return g_opt, d_opt

    def sample_z(self, n):
        return torch.randn(n, self.hparams.latent_dim, device=self.device)

    def training_step(self, batch, batch_idx):
        g_opt, d_opt = self.optimizers()
        (real,) = batch
        hp = self.hparams
        d_regularize = hp.d_reg_every > 0 and (batch_idx + 1) % hp.d_reg_every == 0

        # discriminator
        if d_regularize:
            real.requires_grad_(True)
        fake = self.generator(self.sample_z(real.shape[0]))
        real_pred = self.discriminator(real)
        fake_pred = self.discriminator(fake.detach())
        d_loss = d_logistic_loss(real_pred, fake_pred)
        d_opt.zero_grad()
        self.manual_backward(d_loss, retain_graph=d_regularize)
        d_opt.step()

        if d_regularize:
            r1 = r1_penalty(real_pred, real)
            d_opt.zero_grad()
            self.manual_backward(hp.r1_gamma / 2 * r1 * hp.d_reg_every)
            d_opt.step()
            self.log("r1", r1.detach())

        # generator
        fake_pred = self.discriminator(self.generator(self.sample_z(real.shape[0])))
        g_loss = g_nonsaturating_loss(fake_pred)
        g_opt.zero_grad()
        self.manual_backward(g_loss)
        g_opt.step()
        self.log_dict({"d_loss": d_loss.detach(), "g_loss": g_loss.detach()})
