import torch
import torch.nn.functional as F

from models import Discriminator, Generator, weights_init

CONFIG = {
    "latent_dim": 16,
    "data_dim": 32,
    "batch_size": 64,
    "steps": 40,
    "lr": 2e-4,
    "betas": (0.5, 0.999),
    "label_smoothing": 0.1,
}


def real_batch(n, dim):
    centers = torch.tensor([[-0.5], [0.5]]).expand(2, dim)
    idx = torch.randint(0, 2, (n,))
    return (centers[idx] + 0.1 * torch.randn(n, dim)).clamp_(-1, 1)


class GANTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.G = Generator(cfg["latent_dim"], out_dim=cfg["data_dim"])
        self.D = Discriminator(cfg["data_dim"])
        self.G.apply(weights_init)
        self.D.apply(weights_init)
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=cfg["lr"], betas=cfg["betas"])
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=cfg["lr"], betas=cfg["betas"])

    def d_step(self, real, fake):
        self.opt_d.zero_grad()
        n = real.size(0)
        real_labels = torch.full((n,), 1.0 - self.cfg["label_smoothing"])
        fake_labels = torch.zeros(n)
        loss_real = F.binary_cross_entropy_with_logits(self.D(real), real_labels)
        loss_fake = F.binary_cross_entropy_with_logits(self.D(fake.detach()), fake_labels)
        loss = loss_real + loss_fake
        loss.backward()
        self.opt_d.step()
        return loss.item()

    def g_step(self, fake):
        self.opt_g.zero_grad()
        labels = torch.ones(fake.size(0))
        loss = F.binary_cross_entropy_with_logits(self.D(fake), labels)
        loss.backward()
        self.opt_g.step()
        return loss.item()

    def fit(self):
        history = []
        for step in range(self.cfg["steps"]):
            real = real_batch(self.cfg["batch_size"], self.cfg["data_dim"])
            fake = self.G.sample(self.cfg["batch_size"])
            d_loss = self.d_step(real, fake)
            g_loss = self.g_step(fake)
            history.append((d_loss, g_loss))
            if step % 10 == 0:
                print(f"step {step:3d}  d={d_loss:.4f}  g={g_loss:.4f}")
        return history


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = GANTrainer(CONFIG)
    history = trainer.fit()
    print("final", history[-1])
