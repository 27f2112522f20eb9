import argparse

import torch
import torch.nn as nn

from data import mode_coverage, ring_of_gaussians
from models import Discriminator, Generator, init_weights


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--latent-dim", type=int, default=16)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--iters", type=int, default=200)
    p.add_argument("--lr", type=float, default=2e-4)
    p.add_argument("--log-every", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)

    netG = Generator(latent_dim=args.latent_dim)
    netD = Discriminator()
    netG.apply(init_weights)
    netD.apply(init_weights)

    criterion = nn.BCEWithLogitsLoss()
    optD = torch.optim.Adam(netD.parameters(), lr=args.lr, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=args.lr, betas=(0.5, 0.999))

    real_label, fake_label = 1.0, 0.0
    for it in range(1, args.iters + 1):
        real = ring_of_gaussians(args.batch_size)
        b = real.size(0)

        netD.zero_grad()
        label = torch.full((b,), real_label)
        errD_real = criterion(netD(real), label)
        errD_real.backward()

        noise = torch.randn(b, args.latent_dim)
        fake = netG(noise)
        label.fill_(fake_label)
        errD_fake = criterion(netD(fake.detach()), label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        optD.step()

        netG.zero_grad()
        label.fill_(real_label)
        errG = criterion(netD(fake), label)
        errG.backward()
        optG.step()

        if it % args.log_every == 0:
            print(f"[{it}/{args.iters}] loss_D {errD.item():.4f} loss_G {errG.item():.4f}")

    netG.eval()
    with torch.no_grad():
        samples = netG(torch.randn(2000, args.latent_dim))
    modes, quality = mode_coverage(samples)
    print(f"modes covered {modes}/8  high-quality {quality:.3f}")


if __name__ == "__main__":
    main()
