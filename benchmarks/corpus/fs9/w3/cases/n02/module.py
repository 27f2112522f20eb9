import compat  # noqa: F401
import torch
import lightning as L

from models import Critic, Generator


class WGANGP(L.LightningModule):
    def __init__(self, latent_dim=16, data_dim=32, lr=2e-4, n_critic=3, gp_weight=10.0):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = Generator(latent_dim, data_dim)
        self.critic = Critic(data_dim)

    def gradient_penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1, device=real.device)
        interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        scores = self.critic(interp)
        grads, = torch.autograd.grad(scores.sum(), interp, create_graph=True)
        return ((grads.norm(2, dim=1) - 1) ** 2).mean()

    def training_step(self, batch, batch_idx):
        real, = batch
        opt_g, opt_c = self.optimizers()
        z = torch.randn(real.size(0), self.hparams.latent_dim, device=real.device)
        fake = self.generator(z)

        self.toggle_optimizer(opt_c)
        fake_d = fake.detach()
        loss_c = (self.critic(fake_d).mean() - self.critic(real).mean()
                  + self.hparams.gp_weight * self.gradient_penalty(real, fake_d))
        opt_c.zero_grad()
        self.manual_backward(loss_c)
        opt_c.step()
        self.untoggle_optimizer(opt_c)
        self.log("loss_c", loss_c, prog_bar=True)

        if (batch_idx + 1) % self.hparams.n_critic == 0:
            self.toggle_optimizer(opt_g)
            loss_g = -self.critic(fake).mean()
            opt_g.zero_grad()
            self.manual_backward(loss_g)
            opt_g.step()
            self.untoggle_optimizer(opt_g)
            self.log("loss_g", loss_g, prog_bar=True)

    def configure_optimizers(self):
        lr = self.hparams.lr
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.5, 0.9))
        opt_c = torch.optim.Adam(self.critic.parameters(), lr=lr, betas=(0.5, 0.9))
        return [opt_g, opt_c]
