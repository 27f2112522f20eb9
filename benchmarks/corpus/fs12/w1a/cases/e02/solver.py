import torch
import torch.nn.functional as F
import torch.optim as optim

from models import Discriminator, FactorVAE
from ops import kl_divergence, permute_dims, recon_loss


class Solver:
    def __init__(self, cfg):
        self.cfg = cfg
        self.gamma = cfg["gamma"]
        self.VAE = FactorVAE(cfg["in_dim"], cfg["z_dim"])
        self.D = Discriminator(cfg["z_dim"])
        self.optim_VAE = optim.Adam(self.VAE.parameters(), lr=cfg["lr_VAE"], betas=(0.9, 0.999))
        self.optim_D = optim.Adam(self.D.parameters(), lr=cfg["lr_D"], betas=(0.5, 0.9))

    def batches(self):
        g = torch.Generator().manual_seed(1)
        for _ in range(self.cfg["iters"]):
            x = torch.rand(2 * self.cfg["batch_size"], self.cfg["in_dim"], generator=g)
            yield x.chunk(2)

    def train(self):
        B = self.cfg["batch_size"]
        ones = torch.ones(B, dtype=torch.long)
        zeros = torch.zeros(B, dtype=torch.long)
        for it, (x_true1, x_true2) in enumerate(self.batches(), 1):
            x_recon, mu, logvar, z = self.VAE(x_true1)
            vae_recon_loss = recon_loss(x_true1, x_recon)
            vae_kld = kl_divergence(mu, logvar)

            D_z = self.D(z)
            vae_tc_loss = (D_z[:, :1] - D_z[:, 1:]).mean()

            vae_loss = vae_recon_loss + vae_kld + self.gamma * vae_tc_loss

            self.optim_VAE.zero_grad()
            vae_loss.backward(retain_graph=True)
            self.optim_VAE.step()

            z_prime = self.VAE(x_true2, no_dec=True)
            z_pperm = permute_dims(z_prime).detach()
            D_z_pperm = self.D(z_pperm)
            D_tc_loss = 0.5 * (F.cross_entropy(D_z, zeros) + F.cross_entropy(D_z_pperm, ones))

            self.optim_D.zero_grad()
            D_tc_loss.backward()
            self.optim_D.step()

            if it % self.cfg["print_iter"] == 0:
                print(f"[{it}] vae_recon_loss:{vae_recon_loss.item():.3f} vae_kld:{vae_kld.item():.3f} "
                      f"vae_tc_loss:{vae_tc_loss.item():.3f} D_tc_loss:{D_tc_loss.item():.3f}")
