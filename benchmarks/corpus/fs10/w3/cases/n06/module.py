import lightning as L
import torch
from torch import nn


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, device=real.device)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    grads = torch.autograd.grad(outputs=scores, inputs=interp,
                                grad_outputs=torch.ones_like(scores),
                                create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


class WGANGP(L.LightningModule):
    def __init__(self, latent_dim=8, data_dim=16, n_critic=3, gp_weight=10.0, lr=1e-4):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.generator = nn.Sequential(nn.Linear(latent_dim, 32), nn.ReLU(), nn.Linear(32, data_dim))
        self.critic = nn.Sequential(nn.Linear(data_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, z):
        return self.generator(z)

    def training_step(self, batch, batch_idx):
        (real,) = batch
        opt_g, opt_c = self.optimizers()
        hp = self.hparams

        self.toggle_optimizer(opt_c)
        for _ in range(hp.n_critic):
            z = torch.randn(real.size(0), hp.latent_dim, device=self.device)
            fake = self(z).detach()
            c_loss = self.critic(fake).mean() - self.critic(real).mean()
            c_loss = c_loss + hp.gp_weight * gradient_penalty(self.critic, real, fake)
            opt_c.zero_grad()
            self.manual_backward(c_loss)
            opt_c.step()
        self.untoggle_optimizer(opt_c)

        self.toggle_optimizer(opt_g)
        z = torch.randn(real.size(0), hp.latent_dim, device=self.device)
        g_loss = -self.critic(self(z)).mean()
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()
        self.untoggle_optimizer(opt_g)

        self.log_dict({"c_loss": c_loss.detach(), "g_loss": g_loss.detach()}, prog_bar=False)

    def configure_optimizers(self):
        lr = self.hparams.lr
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.0, 0.9))
        opt_c = torch.optim.Adam(self.critic.parameters(), lr=lr, betas=(0.0, 0.9))
        return [opt_g, opt_c]
