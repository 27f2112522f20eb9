import argparse

import torch
import torch.nn.functional as F

from data import make_batch
from model import ReviewClassifier


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--vocab", type=int, default=200)
    p.add_argument("--dim", type=int, default=32)
    p.add_argument("--max-len", type=int, default=12)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--lr", type=float, default=1e-2)
    return p.parse_args([])


def main():
    args = parse_args()
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = ReviewClassifier(args.vocab, args.dim, 4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for step in range(args.steps):
        tokens, mask, labels = make_batch(args.batch_size, args.max_len, args.vocab, generator=g)
        logits = model(tokens, mask)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 5 == 0:
            acc = (logits.argmax(1) == labels).float().mean().item()
            print(f"step {step:3d}  loss {loss.item():.4f}  acc {acc:.3f}")


if __name__ == "__main__":
    main()
