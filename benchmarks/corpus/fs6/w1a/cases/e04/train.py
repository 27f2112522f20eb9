import argparse

import torch
import torch.nn.functional as F

from model import KeywordSpotter


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--init-state", choices=["zeros", "speaker"], default="speaker")
    return p.parse_args()


def synthetic_epoch(gen, steps=4, batch=8, n_mels=20, frames=40):
    for _ in range(steps):
        mels = torch.randn(batch, n_mels, frames, generator=gen)
        speaker = torch.randint(0, 8, (batch,), generator=gen)
        label = torch.randint(0, 6, (batch,), generator=gen)
        yield mels, speaker, label


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = KeywordSpotter(speaker_init=args.init_state == "speaker")
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    gen = torch.Generator().manual_seed(1)
    for epoch in range(args.epochs):
        model.train()
        for mels, speaker, label in synthetic_epoch(gen, batch=args.batch_size):
            logits = model(mels, speaker)
            loss = F.cross_entropy(logits, label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
