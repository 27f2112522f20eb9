import argparse

import torch
import torch.nn as nn
import torch.optim as optim

from models import Discriminator, Generator, weights_init

parser = argparse.ArgumentParser()
parser.add_argument("--niter", type=int, default=3)
parser.add_argument("--batch_size", type=int, default=16)
parser.add_argument("--nz", type=int, default=16)
parser.add_argument("--lr", type=float, default=2e-4)
parser.add_argument("--beta1", type=float, default=0.5)
opt = parser.parse_args()

torch.manual_seed(999)

netG = Generator(nz=opt.nz)
netG.apply(weights_init)
netD = Discriminator()
netD.apply(weights_init)

criterion = nn.BCELoss()
fixed_noise = torch.randn(8, opt.nz, 1, 1)
real_label = 1.0
fake_label = 0.0

optimizerD = optim.Adam(netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))

dataset = torch.rand(32, 1, 16, 16) * 2 - 1
loader = torch.utils.data.DataLoader(dataset, batch_size=opt.batch_size, shuffle=True)

for epoch in range(opt.niter):
    for i, data in enumerate(loader, 0):
        ############################
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        ###########################
        netD.zero_grad()
        real_cpu = data
        batch_size = real_cpu.size(0)
        label = torch.full((batch_size,), real_label, dtype=real_cpu.dtype)

        output = netD(real_cpu)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(batch_size, opt.nz, 1, 1)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach())
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        ############################
        # (2) Update G network: maximize log(D(G(z)))
        ###########################
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()

    print("[%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f"
          % (epoch, opt.niter, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))

with torch.no_grad():
    samples = netG(fixed_noise)
print("samples", tuple(samples.shape))
