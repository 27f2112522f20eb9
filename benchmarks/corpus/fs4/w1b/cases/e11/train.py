import argparse

import torch
import torch.nn as nn

from losses import MMDLoss


class Generator(nn.Module):
    def __init__(self, z_dim=8, hidden=64, out_dim=2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(z_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, out_dim),
        )

    def forward(self, z):
        return self.net(z)


def sample_real(n, g):
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    idx = torch.randint(0, 4, (n,), generator=g)
    return centers[idx] + 0.1 * torch.randn(n, 2, generator=g)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--iters", type=int, default=6)
    p.add_argument("--batch-size", type=int, default=96)
    p.add_argument("--kernel-backend", default="auto", choices=["auto", "torch", "fused"])
    return p.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    gen = Generator()
    opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
    criterion = MMDLoss(backend=args.kernel_backend)
    for it in range(args.iters):
        z = torch.randn(args.batch_size, 8, generator=g)
        fake = gen(z)
        real = sample_real(args.batch_size, g)
        loss = criterion(fake, real)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it} mmd {loss.item():.5f}")


if __name__ == "__main__":
    main()
