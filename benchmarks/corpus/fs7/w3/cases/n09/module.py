import lightning as L
import torch
import torch.nn.functional as F
from torch import nn


class GAN(L.LightningModule):
    def __init__(self, latent_dim=8, data_dim=16, lr=2e-4, b1=0.5, b2=0.999):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = nn.Sequential(nn.Linear(latent_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, data_dim), nn.Tanh())
        self.discriminator = nn.Sequential(nn.Linear(data_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, z):
        return self.generator(z)

    def adversarial_loss(self, y_hat, y):
        return F.binary_cross_entropy_with_logits(y_hat, y)

    def training_step(self, batch, batch_idx):
        (real,) = batch
        optimizer_g, optimizer_d = self.optimizers()
        z = torch.randn(real.shape[0], self.hparams.latent_dim).type_as(real)

        self.toggle_optimizer(optimizer_g)
        self.generated = self(z)
        valid = torch.ones(real.size(0), 1).type_as(real)
        g_loss = self.adversarial_loss(self.discriminator(self.generated), valid)
        self.log("g_loss", g_loss, prog_bar=True)
        self.manual_backward(g_loss)
        optimizer_g.step()
        optimizer_g.zero_grad()
        self.untoggle_optimizer(optimizer_g)

        self.toggle_optimizer(optimizer_d)
        valid = torch.ones(real.size(0), 1).type_as(real)
        real_loss = self.adversarial_loss(self.discriminator(real), valid)
        fake = torch.zeros(real.size(0), 1).type_as(real)
        fake_loss = self.adversarial_loss(self.discriminator(self.generated.detach()), fake)
        d_loss = (real_loss + fake_loss) / 2
        self.log("d_loss", d_loss, prog_bar=True)
        self.manual_backward(d_loss)
        optimizer_d.step()
        optimizer_d.zero_grad()
        self.untoggle_optimizer(optimizer_d)

    def configure_optimizers(self):
        lr, b1, b2 = self.hparams.lr, self.hparams.b1, self.hparams.b2
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(b1, b2))
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=lr, betas=(b1, b2))
        return [opt_g, opt_d]
