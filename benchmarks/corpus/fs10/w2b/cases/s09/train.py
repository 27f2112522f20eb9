import argparse

import torch
import torch.nn as nn

from model import PairEncoder


CONFIGS = {
    "snli-small": dict(in_dim=32, hid_dim=48, n_classes=3, n_layers=2, act="relu", dropout=0.1),
    "snli-base": dict(in_dim=32, hid_dim=64, n_classes=3, n_layers=3, act="tanh", dropout=0.1),
}


def make_batches(n_batches, batch_size, in_dim, n_classes, generator):
    for _ in range(n_batches):
        premise = torch.randn(batch_size, in_dim, generator=generator)
        hypothesis = premise + 0.5 * torch.randn(batch_size, in_dim, generator=generator)
        labels = torch.randint(0, n_classes, (batch_size,), generator=generator)
        yield premise, hypothesis, labels


class Trainer:
    def __init__(self, model, lr, weight_decay=0.0):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)

    def train_epoch(self, batches):
        self.model.train()
        total, n = 0.0, 0
        for premise, hypothesis, labels in batches:
            logits = self.model(premise, hypothesis)
            loss = self.criterion(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
            n += 1
        return total / max(n, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="snli-base")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])

    torch.manual_seed(0)
    cfg = CONFIGS[args.config]
    model = PairEncoder(**cfg)
    trainer = Trainer(model, lr=args.lr)
    gen = torch.Generator().manual_seed(1)
    for epoch in range(args.epochs):
        batches = make_batches(20, 16, cfg["in_dim"], cfg["n_classes"], gen)
        avg = trainer.train_epoch(batches)
        print(f"epoch {epoch} loss {avg:.4f}")
    return model


if __name__ == "__main__":
    model = main()
