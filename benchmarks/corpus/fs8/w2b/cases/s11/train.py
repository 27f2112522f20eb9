import argparse

import torch

from model import ForecastNet
from trainer import Trainer


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--amp", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--grad-max-norm", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


def make_loader(n_batches=3, batch=4, n_vars=4, size=12):
    data = []
    for _ in range(n_batches):
        x = torch.randn(batch, n_vars, size, size)
        y = torch.roll(x, shifts=1, dims=-1) + 0.1 * torch.randn_like(x)
        data.append((x, y))
    return data


if __name__ == "__main__":
    args = get_args()
    torch.manual_seed(args.seed)
    model = ForecastNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    loader = make_loader()
    trainer = Trainer(model, optimizer, args)
    for epoch in range(args.epochs):
        trainer.train_one_epoch(loader, epoch)
