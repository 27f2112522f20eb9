import argparse

import torch
import torch.nn.functional as F

from model import MultimodalHRED


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps_per_epoch", type=int, default=7)
    parser.add_argument("--val_step", type=int, default=5)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args()


def random_batch(gen, batch_size, vocab=50, turns=3, length=6, image_dim=24, tgt_len=5):
    context = torch.randint(1, vocab, (batch_size, turns, length), generator=gen)
    images = torch.randn(batch_size, turns, image_dim, generator=gen)
    target = torch.randint(1, vocab, (batch_size, tgt_len + 1), generator=gen)
    return context, images, target


def compute_loss(model, batch):
    context, images, target = batch
    logits = model(context, images, target[:, :-1])
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), target[:, 1:].reshape(-1))


def evaluate(model, val_batches):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for batch in val_batches:
            total += compute_loss(model, batch).item()
    return total / len(val_batches)


def train(args):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = MultimodalHRED()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    val_batches = [random_batch(gen, args.batch_size) for _ in range(2)]

    iteration = 0
    model.train()
    for epoch in range(args.epochs):
        for step in range(args.steps_per_epoch):
            batch = random_batch(gen, args.batch_size)
            loss = compute_loss(model, batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            iteration += 1
            if iteration % args.val_step == 0:
                val_loss = evaluate(model, val_batches)
                print(f"iter {iteration}: train {loss.item():.4f} val {val_loss:.4f}")
        print(f"epoch {epoch} done")
    return model, iteration


if __name__ == "__main__":
    args = get_args()
    model, iteration = train(args)
