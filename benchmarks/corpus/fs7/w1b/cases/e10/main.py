import argparse

import torch
import torch.nn as nn

from model import TransformerClassifier


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--vocab_size", type=int, default=5000)
    p.add_argument("--d_model", type=int, default=32)
    p.add_argument("--num_heads", type=int, default=2)
    p.add_argument("--num_layers", type=int, default=1)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--learned_pos", action="store_true")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch_size", type=int, default=16)
    return p.parse_args()


def fake_imdb(n, seq_len, vocab_size):
    g = torch.Generator().manual_seed(0)
    x = torch.randint(2, vocab_size, (n, seq_len), generator=g)
    y = torch.randint(0, 2, (n,), generator=g)
    return list(zip(x.split(16), y.split(16)))


def train(model, loader, optimizer, epoch):
    model.train()
    criterion = nn.CrossEntropyLoss()
    nb_batches = len(loader)
    epoch_loss, acc = 0.0, 0.0
    for x, y in loader:
        out = model(x)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc += (out.argmax(1) == y).float().mean().item()
        epoch_loss += loss.item()
    print(f"epoch {epoch} loss {epoch_loss / nb_batches:.4f} acc {acc / nb_batches:.3f}")


def main():
    args = get_args()
    torch.manual_seed(0)
    model = TransformerClassifier(num_layers=args.num_layers, d_model=args.d_model,
                                  num_heads=args.num_heads, conv_hidden_dim=args.hidden,
                                  input_vocab_size=args.vocab_size, num_answers=2,
                                  sinusoidal=not args.learned_pos)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    loader = fake_imdb(64, 40, args.vocab_size)
    for epoch in range(args.epochs):
        train(model, loader, optimizer, epoch)


if __name__ == "__main__":
    main()
