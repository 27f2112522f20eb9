import torch

from losses import critic_loss, generator_loss
from networks import Critic, Generator


class WGANGPTrainer:
    def __init__(self, data_sampler, data_dim, z_dim=8, lr=1e-4, betas=(0.5, 0.9),
                 n_critic=5, lambda_gp=10.0):
        self.sample_real = data_sampler
        self.z_dim = z_dim
        self.G = Generator(z_dim, data_dim)
        self.D = Critic(data_dim)
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=lr, betas=betas)
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=lr, betas=betas)
        self.n_critic = n_critic
        self.lambda_gp = lambda_gp

    def _requires_grad(self, module, flag):
        for p in module.parameters():
            p.requires_grad_(flag)

    def train_iteration(self, batch_size):
        self._requires_grad(self.D, True)
        for _ in range(self.n_critic):
            real = self.sample_real(batch_size)
            with torch.no_grad():
                fake = self.G(torch.randn(batch_size, self.z_dim))
            self.opt_d.zero_grad()
            loss_d, w_dist, gp = critic_loss(self.D, real, fake, self.lambda_gp)
            loss_d.backward()
            self.opt_d.step()

        self._requires_grad(self.D, False)
        self.opt_g.zero_grad()
        fake = self.G(torch.randn(batch_size, self.z_dim))
        loss_g = generator_loss(self.D, fake)
        loss_g.backward()
        self.opt_g.step()
        return {"loss_d": loss_d.item(), "loss_g": loss_g.item(), "w_dist": w_dist.item(), "gp": gp.item()}
