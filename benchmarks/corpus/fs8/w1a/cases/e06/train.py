import argparse

import compat  # noqa: F401
import torch

from losses import nt_xent
from model import SimCLR


def augment(x):
    flip = torch.rand(x.shape[0], 1, 1, 1) < 0.5
    x = torch.where(flip, x.flip(-1), x)
    x = x + 0.1 * torch.randn_like(x)
    scale = 0.8 + 0.4 * torch.rand(x.shape[0], 1, 1, 1)
    return x * scale


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--temperature", type=float, default=0.5)
    parser.add_argument("--proj-dropout", type=float, default=0.1)
    return parser.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = SimCLR(proj_dropout=args.proj_dropout)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-6)
    images = torch.rand(64, 3, 32, 32)
    model.train()
    for step in range(args.steps):
        idx = torch.randint(0, images.shape[0], (args.batch_size,))
        x = images[idx]
        _, z1 = model(augment(x))
        _, z2 = model(augment(x))
        loss = nt_xent(z1, z2, args.temperature)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
