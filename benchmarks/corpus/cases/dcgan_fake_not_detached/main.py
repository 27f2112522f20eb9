import torch
import torch.nn as nn

from dcgan import NetD, NetG, nz

torch.manual_seed(0)
netG, netD = NetG(), NetD()
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
real_label, fake_label = 1.0, 0.0
dataloader = [torch.randn(16, 1, 8, 8) for _ in range(3)]

for i, real in enumerate(dataloader):
    batch_size = real.size(0)
    ############################
    # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
    ###########################
    netD.zero_grad()
    label = torch.full((batch_size,), real_label)
    output = netD(real)
    errD_real = criterion(output, label)
    errD_real.backward()

    noise = torch.randn(batch_size, nz, 1, 1)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake)
    errD_fake = criterion(output, label)
    errD_fake.backward()
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
    optimizerG.step()
    print(f"[{i}] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f}")
