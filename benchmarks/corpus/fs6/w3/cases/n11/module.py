import compat  # noqa: F401

import lightning as L
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, latent_dim, data_dim):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(latent_dim, 64), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(64, 64), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(64, data_dim),
        )

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self, data_dim):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(data_dim, 64), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(64, 64), nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(64, 1),
        )

    def forward(self, x):
        return self.net(x)


class WGANGP(L.LightningModule):
    def __init__(self, latent_dim=8, data_dim=16, lr=1e-4, n_critic=3, lambda_gp=10.0):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = Generator(latent_dim, data_dim)
        self.critic = Critic(data_dim)

    def forward(self, z):
        return self.generator(z)

    def compute_gradient_penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1, device=self.device)
        interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        d_interpolates = self.critic(interpolates)
        gradients = torch.autograd.grad(
            outputs=d_interpolates,
            inputs=interpolates,
            grad_outputs=torch.ones_like(d_interpolates),
            create_graph=True,
            retain_graph=True,
        )[0]
        gradients = gradients.view(gradients.size(0), -1)
        return ((gradients.norm(2, dim=1) - 1) ** 2).mean()

    def training_step(self, batch, batch_idx):
        (real,) = batch
        opt_g, opt_c = self.optimizers()
        z = torch.randn(real.size(0), self.hparams.latent_dim, device=self.device)

        self.toggle_optimizer(opt_c)
        fake = self(z).detach()
        gp = self.compute_gradient_penalty(real, fake)
        c_loss = self.critic(fake).mean() - self.critic(real).mean() + self.hparams.lambda_gp * gp
        opt_c.zero_grad()
        self.manual_backward(c_loss)
        opt_c.step()
        self.untoggle_optimizer(opt_c)
        self.log("c_loss", c_loss, prog_bar=True)

        if (batch_idx + 1) % self.hparams.n_critic == 0:
            self.toggle_optimizer(opt_g)
            g_loss = -self.critic(self(z)).mean()
            opt_g.zero_grad()
            self.manual_backward(g_loss)
            opt_g.step()
            self.untoggle_optimizer(opt_g)
            self.log("g_loss", g_loss, prog_bar=True)

    def configure_optimizers(self):
        lr = self.hparams.lr
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.0, 0.9))
        opt_c = torch.optim.Adam(self.critic.parameters(), lr=lr, betas=(0.0, 0.9))
        return [opt_g, opt_c], []
