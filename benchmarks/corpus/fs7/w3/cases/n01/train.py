import torch
from torch import nn

from models import Discriminator, Generator

CFG = {"z_dim": 16, "data_dim": 32, "batch_size": 64, "steps": 40, "lr": 2e-4, "betas": (0.5, 0.999)}


def sample_real(n, dim):
    base = torch.linspace(-1, 1, dim)
    return torch.tanh(base.unsqueeze(0) * 2 + 0.1 * torch.randn(n, dim))


def main():
    torch.manual_seed(0)
    netG = Generator(CFG["z_dim"], out_dim=CFG["data_dim"])
    netD = Discriminator(CFG["data_dim"])
    criterion = nn.BCEWithLogitsLoss()
    optG = torch.optim.Adam(netG.parameters(), lr=CFG["lr"], betas=CFG["betas"])
    optD = torch.optim.Adam(netD.parameters(), lr=CFG["lr"], betas=CFG["betas"])
    real_label, fake_label = 1.0, 0.0

    for step in range(CFG["steps"]):
        real = sample_real(CFG["batch_size"], CFG["data_dim"])
        b = real.size(0)

        # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        label = torch.full((b,), real_label)
        errD_real = criterion(netD(real), label)
        errD_real.backward()

        noise = torch.randn(b, CFG["z_dim"])
        fake = netG(noise)
        label.fill_(fake_label)
        errD_fake = criterion(netD(fake.detach()), label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        optD.step()

        # (2) update G: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        errG = criterion(netD(fake), label)
        errG.backward()
        optG.step()

        if step % 10 == 0:
            print(f"[{step}/{CFG['steps']}] loss_D {errD.item():.4f} loss_G {errG.item():.4f}")


if __name__ == "__main__":
    main()
