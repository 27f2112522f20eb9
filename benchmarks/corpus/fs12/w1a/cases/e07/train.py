import argparse

import torch
import torch.nn as nn

from qmodule import QModule
from vit import ViT


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--steps_per_epoch", type=int, default=4)
    p.add_argument("--batch_size", type=int, default=16)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--bits", type=int, default=8)
    return p.parse_args()


def train(args, model):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    g = torch.Generator().manual_seed(0)
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for _ in range(args.steps_per_epoch):
            images = torch.randn(args.batch_size, 3, 32, 32, generator=g)
            labels = torch.randint(0, 10, (args.batch_size,), generator=g)
            loss = criterion(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / args.steps_per_epoch:.4f}")


def main():
    args = get_args()
    torch.manual_seed(0)
    model = ViT()
    model = QModule(model, bits=args.bits)
    train(args, model)


if __name__ == "__main__":
    main()
