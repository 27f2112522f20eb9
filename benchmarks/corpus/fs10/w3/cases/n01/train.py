import torch
import torch.nn.functional as F

from models import Discriminator, Generator

CFG = {"latent_dim": 16, "data_dim": 32, "batch_size": 64, "steps": 30, "lr": 2e-4}


class GANTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.G = Generator(cfg["latent_dim"], out_dim=cfg["data_dim"])
        self.D = Discriminator(cfg["data_dim"])
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=cfg["lr"], betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=cfg["lr"], betas=(0.5, 0.999))

    def sample_real(self, n):
        centers = torch.tensor([[1.0], [-1.0]]).repeat(1, self.cfg["data_dim"])
        idx = torch.randint(0, 2, (n,))
        return (centers[idx] + 0.1 * torch.randn(n, self.cfg["data_dim"])).clamp_(-1, 1)

    def discriminator_step(self, real, fake):
        self.opt_d.zero_grad()
        logits_real = self.D(real)
        logits_fake = self.D(fake.detach())
        loss = F.binary_cross_entropy_with_logits(logits_real, torch.ones_like(logits_real)) + \
            F.binary_cross_entropy_with_logits(logits_fake, torch.zeros_like(logits_fake))
        loss.backward()
        self.opt_d.step()
        return loss.item()

    def generator_step(self, fake):
        self.opt_g.zero_grad()
        logits = self.D(fake)
        loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
        loss.backward()
        self.opt_g.step()
        return loss.item()

    def fit(self):
        bs = self.cfg["batch_size"]
        for step in range(self.cfg["steps"]):
            real = self.sample_real(bs)
            z = torch.randn(bs, self.cfg["latent_dim"])
            fake = self.G(z)
            d_loss = self.discriminator_step(real, fake)
            g_loss = self.generator_step(fake)
            if step % 10 == 0:
                print(f"step {step:3d}  d_loss {d_loss:.4f}  g_loss {g_loss:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = GANTrainer(CFG)
    trainer.fit()
    model = trainer.G
