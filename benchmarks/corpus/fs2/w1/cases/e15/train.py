import argparse
import random

import torch

from models import recognition_predictor
from vocab import VOCAB


def parse_args():
    parser = argparse.ArgumentParser(description="Text recognition training")
    parser.add_argument("arch", nargs="?", default="sar")
    parser.add_argument("--max-length", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args()


def synth_batch(batch_size, max_length):
    words = ["".join(random.choices(VOCAB, k=random.randint(2, max_length))) for _ in range(batch_size)]
    images = torch.rand(batch_size, 3, 32, 128)
    return images, words


def main():
    args = parse_args()
    random.seed(0)
    torch.manual_seed(0)
    model = recognition_predictor(args.arch, max_length=args.max_length)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.95, 0.99), eps=1e-6)
    model.train()
    for step in range(args.steps):
        images, targets = synth_batch(args.batch_size, args.max_length)
        train_loss = model(images, targets)["loss"]
        optimizer.zero_grad()
        train_loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5)
        optimizer.step()
        print(f"step {step}: loss={train_loss.mean().item():.4f}")


if __name__ == "__main__":
    main()
