"""Train the siamese encoder on synthetic paraphrase pairs."""
import compat  # noqa: F401
import argparse

import torch

from model import SiameseEncoder
from trainer import Trainer


def make_batches(n_batches, batch_size, seq_len, vocab_size):
    batches = []
    for _ in range(n_batches):
        a = torch.randint(1, vocab_size, (batch_size, seq_len))
        b = a.clone()
        swap = torch.rand(batch_size, seq_len) < 0.2
        b[swap] = torch.randint(1, vocab_size, (int(swap.sum()),))
        a_mask = torch.ones_like(a)
        b_mask = torch.ones_like(b)
        a_mask[:, seq_len - 3:] = 0
        batches.append({"a_ids": a, "a_mask": a_mask, "b_ids": b, "b_mask": b_mask})
    return batches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--grad-accum", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-4)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = SiameseEncoder()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    trainer = Trainer(model, optimizer, accum_steps=args.grad_accum)
    trainer.fit(make_batches(3, args.batch_size, 12, 200), args.epochs)


if __name__ == "__main__":
    main()
