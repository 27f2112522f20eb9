import torch
import torch.nn as nn
import torch.optim as optim

from models import Discriminator, Generator, weights_init

torch.manual_seed(999)

config = {"nz": 16, "batch_size": 16, "iters": 4, "lr": 2e-4, "beta1": 0.5}
real_label, fake_label = 1.0, 0.0


def real_batches(n, bs):
    for _ in range(n):
        yield torch.rand(bs, 3, 16, 16) * 2 - 1


netG = Generator(nz=config["nz"])
netD = Discriminator()
netG.apply(weights_init)
netD.apply(weights_init)

criterion = nn.BCELoss()
fixed_noise = torch.randn(4, config["nz"], 1, 1)
optimizerD = optim.Adam(netD.parameters(), lr=config["lr"], betas=(config["beta1"], 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=config["lr"], betas=(config["beta1"], 0.999))

G_losses, D_losses = [], []
for i, real in enumerate(real_batches(config["iters"], config["batch_size"])):
    b_size = real.size(0)

    netD.zero_grad()
    label = torch.full((b_size,), real_label)
    output = netD(real)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()

    noise = torch.randn(b_size, config["nz"], 1, 1)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optimizerD.step()

    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optimizerG.step()

    G_losses.append(errG.item())
    D_losses.append(errD.item())
    print(f"[{i}] Loss_D {errD.item():.4f} Loss_G {errG.item():.4f} "
          f"D(x) {D_x:.4f} D(G(z)) {D_G_z1:.4f} / {D_G_z2:.4f}")

with torch.no_grad():
    samples = netG(fixed_noise).detach()
print("samples", tuple(samples.shape))
