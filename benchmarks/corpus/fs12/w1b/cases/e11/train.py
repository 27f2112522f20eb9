import argparse

import torch

from model import RadialNet


def make_batch(num_graphs=8, atoms=6):
    z = torch.randint(0, 10, (num_graphs * atoms,))
    pos = torch.randn(num_graphs * atoms, 3) * 1.5
    batch = torch.arange(num_graphs).repeat_interleave(atoms)
    src, dst = [], []
    for g in range(num_graphs):
        base = g * atoms
        for i in range(atoms):
            for j in range(atoms):
                if i != j:
                    src.append(base + i)
                    dst.append(base + j)
    y = torch.randn(num_graphs)
    return z, pos, torch.tensor(src), torch.tensor(dst), batch, y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--num-blocks", type=int, default=2)
    parser.add_argument("--num-radial", type=int, default=6)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = RadialNet(args.hidden, args.num_blocks, args.num_radial)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    z, pos, src, dst, batch, y = make_batch()
    for epoch in range(args.epochs):
        pred = model(z, pos, src, dst, batch, 8)
        loss = torch.nn.functional.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
