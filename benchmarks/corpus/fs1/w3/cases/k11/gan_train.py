import math

import torch
from torch import autograd

from nets import Critic, Generator

BATCH_SIZE = 64
CRITIC_ITERS = 5
LAMBDA = 10.0
ITERS = 40
NZ = 8


def inf_train_gen(batch_size):
    centers = torch.tensor([(math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8)]) * 2
    while True:
        idx = torch.randint(0, 8, (batch_size,))
        yield centers[idx] + 0.05 * torch.randn(batch_size, 2)


def calc_gradient_penalty(netD, real_data, fake_data):
    alpha = torch.rand(real_data.size(0), 1).expand_as(real_data)
    interpolates = alpha * real_data + (1 - alpha) * fake_data
    interpolates.requires_grad_(True)
    disc_interpolates = netD(interpolates)
    gradients = autograd.grad(
        outputs=disc_interpolates,
        inputs=interpolates,
        grad_outputs=torch.ones_like(disc_interpolates),
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


if __name__ == "__main__":
    torch.manual_seed(1)
    netG, netD = Generator(NZ), Critic()
    optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-4, betas=(0.5, 0.9))
    optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-4, betas=(0.5, 0.9))
    data = inf_train_gen(BATCH_SIZE)

    for iteration in range(ITERS):
        for p in netD.parameters():
            p.requires_grad = True

        for _ in range(CRITIC_ITERS):
            real = next(data)
            netD.zero_grad()
            D_real = netD(real).mean()
            with torch.no_grad():
                fake = netG(torch.randn(BATCH_SIZE, NZ))
            D_fake = netD(fake).mean()
            gradient_penalty = calc_gradient_penalty(netD, real, fake)
            D_cost = D_fake - D_real + gradient_penalty
            D_cost.backward()
            Wasserstein_D = D_real - D_fake
            optimizerD.step()

        for p in netD.parameters():
            p.requires_grad = False

        netG.zero_grad()
        fake = netG(torch.randn(BATCH_SIZE, NZ))
        G_cost = -netD(fake).mean()
        G_cost.backward()
        optimizerG.step()

        if iteration % 10 == 9:
            print(f"iter {iteration + 1} D_cost {D_cost.item():.4f} G_cost {G_cost.item():.4f} "
                  f"W_dist {Wasserstein_D.item():.4f}")
