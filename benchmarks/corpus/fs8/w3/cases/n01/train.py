import torch
import torch.nn as nn

from models import Discriminator, Generator, weights_init

CFG = {
    "z_dim": 16,
    "data_dim": 32,
    "batch_size": 64,
    "steps": 24,
    "lr": 2e-4,
    "betas": (0.5, 0.999),
    "real_label": 0.9,
    "fake_label": 0.0,
}


def sample_real(n, dim):
    base = torch.linspace(-1, 1, dim)
    return (base.unsqueeze(0) * torch.rand(n, 1) + 0.05 * torch.randn(n, dim)).clamp(-1, 1)


class GANTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.netG = Generator(cfg["z_dim"], out_dim=cfg["data_dim"])
        self.netD = Discriminator(cfg["data_dim"])
        self.netG.apply(weights_init)
        self.netD.apply(weights_init)
        self.criterion = nn.BCEWithLogitsLoss()
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=cfg["lr"], betas=cfg["betas"])
        self.optG = torch.optim.Adam(self.netG.parameters(), lr=cfg["lr"], betas=cfg["betas"])
        self.fixed_noise = torch.randn(8, cfg["z_dim"])

    def step(self, real):
        b = real.size(0)
        label = torch.full((b,), self.cfg["real_label"])

        self.netD.zero_grad()
        out_real = self.netD(real)
        errD_real = self.criterion(out_real, label)
        errD_real.backward()

        noise = torch.randn(b, self.cfg["z_dim"])
        fake = self.netG(noise)
        label.fill_(self.cfg["fake_label"])
        out_fake = self.netD(fake.detach())
        errD_fake = self.criterion(out_fake, label)
        errD_fake.backward()
        self.optD.step()

        self.netG.zero_grad()
        label.fill_(1.0)
        out = self.netD(fake)
        errG = self.criterion(out, label)
        errG.backward()
        self.optG.step()
        return (errD_real + errD_fake).item(), errG.item()

    @torch.no_grad()
    def preview(self):
        self.netG.eval()
        samples = self.netG(self.fixed_noise)
        self.netG.train()
        return samples


def main():
    torch.manual_seed(0)
    trainer = GANTrainer(CFG)
    for it in range(CFG["steps"]):
        real = sample_real(CFG["batch_size"], CFG["data_dim"])
        d_loss, g_loss = trainer.step(real)
        if it % 8 == 0:
            print(f"[{it:03d}] loss_D={d_loss:.4f} loss_G={g_loss:.4f}")
    print("preview mean", trainer.preview().mean().item())
    return trainer


if __name__ == "__main__":
    trainer = main()
