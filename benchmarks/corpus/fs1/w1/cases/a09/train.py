import argparse

import numpy as np
import torch

from meanflow import MeanFlow
from model import MFDiT


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--image-size", type=int, default=8)
    parser.add_argument("--grad-checkpointing", type=int, default=1)
    return parser.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(0)
    np.random.seed(0)
    model = MFDiT(image_size=args.image_size, grad_checkpointing=bool(args.grad_checkpointing))
    meanflow = MeanFlow(num_classes=10)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0)
    model.train()
    for step in range(args.steps):
        x = torch.rand(args.batch_size, 1, args.image_size, args.image_size)
        c = torch.randint(0, 10, (args.batch_size,))
        loss = meanflow.loss(model, x, c)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
