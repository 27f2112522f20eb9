import math

import torch
import torch.nn as nn

from networks import Discriminator, Generator, weights_init

opt = {"z_dim": 8, "batch": 64, "iters": 40, "lr": 2e-4, "beta1": 0.5, "n_critic": 1}

torch.manual_seed(0)


def sample_ring(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    angle = k.float() * (2 * math.pi / modes)
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + std * torch.randn(n, 2)


netG = Generator(opt["z_dim"])
netD = Discriminator()
netG.apply(weights_init)
netD.apply(weights_init)

criterion = nn.BCEWithLogitsLoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=opt["lr"], betas=(opt["beta1"], 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=opt["lr"], betas=(opt["beta1"], 0.999))
real_label, fake_label = 1.0, 0.0

for it in range(opt["iters"]):
    real = sample_ring(opt["batch"])
    b = real.size(0)

    # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
    netD.zero_grad()
    label = torch.full((b,), real_label)
    errD_real = criterion(netD(real), label)
    errD_real.backward()

    noise = torch.randn(b, opt["z_dim"])
    fake = netG(noise)
    label.fill_(fake_label)
    errD_fake = criterion(netD(fake.detach()), label)
    errD_fake.backward()
    errD = errD_real + errD_fake
    optimizerD.step()

    # (2) update G: maximize log(D(G(z)))
    netG.zero_grad()
    label.fill_(real_label)
    errG = criterion(netD(fake), label)
    errG.backward()
    optimizerG.step()

    if it % 10 == 0:
        print(f"[{it}/{opt['iters']}] Loss_D {errD.item():.4f} Loss_G {errG.item():.4f}")
