import torch

from model import Discriminator, Generator, GeneratorLoss

torch.manual_seed(0)
netG = Generator()
netD = Discriminator()
generator_criterion = GeneratorLoss()
optimizerG = torch.optim.Adam(netG.parameters())
optimizerD = torch.optim.Adam(netD.parameters())

train_loader = [(torch.randn(2, 3, 8, 8), torch.randn(2, 3, 16, 16)) for _ in range(3)]

for epoch in range(1, 3):
    netG.train()
    netD.train()
    for data, target in train_loader:
        real_img = target
        z = data

        ############################
        # (1) Update D network: maximize D(x)-1-D(G(z))
        ###########################
        fake_img = netG(z)
        netD.zero_grad()
        real_out = netD(real_img).mean()
        fake_out = netD(fake_img).mean()
        d_loss = 1 - real_out + fake_out
        d_loss.backward(retain_graph=True)
        optimizerD.step()

        ############################
        # (2) Update G network: minimize 1-D(G(z)) + Image Loss
        ###########################
        netG.zero_grad()
        g_loss = generator_criterion(fake_out, fake_img, real_img)
        g_loss.backward()
        optimizerG.step()

    print(f"epoch {epoch}: d_loss {d_loss.item():.4f} g_loss {g_loss.item():.4f}")
