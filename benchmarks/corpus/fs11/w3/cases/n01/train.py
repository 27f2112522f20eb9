import torch
import torch.nn.functional as F

from models import Discriminator, Generator

CFG = {"z_dim": 16, "data_dim": 8, "batch": 32, "steps": 40, "lr": 2e-4, "betas": (0.5, 0.999)}


def real_batch(n, dim):
    centers = torch.tensor([[2.0] * dim, [-2.0] * dim])
    idx = torch.randint(0, 2, (n,))
    return centers[idx] + 0.3 * torch.randn(n, dim)


class GANTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.G = Generator(cfg["z_dim"], out_dim=cfg["data_dim"])
        self.D = Discriminator(cfg["data_dim"])
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=cfg["lr"], betas=cfg["betas"])
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=cfg["lr"], betas=cfg["betas"])

    def d_step(self, real, fake):
        self.opt_d.zero_grad(set_to_none=True)
        logits_real = self.D(real)
        logits_fake = self.D(fake.detach())
        loss = F.binary_cross_entropy_with_logits(logits_real, torch.ones_like(logits_real)) + \
            F.binary_cross_entropy_with_logits(logits_fake, torch.zeros_like(logits_fake))
        loss.backward()
        self.opt_d.step()
        return loss.item()

    def g_step(self, fake):
        self.opt_g.zero_grad(set_to_none=True)
        logits = self.D(fake)
        loss = F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))
        loss.backward()
        self.opt_g.step()
        return loss.item()

    def fit(self):
        for step in range(self.cfg["steps"]):
            real = real_batch(self.cfg["batch"], self.cfg["data_dim"])
            z = torch.randn(self.cfg["batch"], self.cfg["z_dim"])
            fake = self.G(z)
            d_loss = self.d_step(real, fake)
            g_loss = self.g_step(fake)
            if step % 10 == 0:
                print(f"step {step:3d}  d_loss {d_loss:.4f}  g_loss {g_loss:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = GANTrainer(CFG)
    trainer.fit()
