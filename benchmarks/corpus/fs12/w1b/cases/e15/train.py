import argparse

import torch
import torch.nn as nn

from model import CharLM
from utils import batchify, get_batch, repackage_state


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--vocab", type=int, default=40)
    p.add_argument("--bptt", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--clip", type=float, default=0.25)
    p.add_argument("--epochs", type=int, default=2)
    return p.parse_args()


def train_epoch(model, data, optimizer, criterion, args):
    model.train()
    state = model.init_state(args.batch_size)
    total = 0.0
    for batch, i in enumerate(range(0, data.size(0) - 1, args.bptt)):
        inputs, targets = get_batch(data, i, args.bptt)
        state = repackage_state(state)
        optimizer.zero_grad()
        logits, state = model(inputs, state)
        loss = criterion(logits.view(-1, logits.size(-1)), targets)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        optimizer.step()
        total += loss.item()
    return total / (batch + 1)


def main():
    args = parse_args()
    torch.manual_seed(0)
    corpus = torch.randint(0, args.vocab, (2000,))
    data = batchify(corpus, args.batch_size)
    model = CharLM(args.vocab)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        print(f"epoch {epoch} loss={train_epoch(model, data, optimizer, criterion, args):.4f}")


if __name__ == "__main__":
    main()
