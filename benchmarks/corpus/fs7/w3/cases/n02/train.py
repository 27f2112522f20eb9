import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, random_split

from data import SyntheticRegression


def build_model(dim):
    return nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, 1))


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    total, n = 0.0, 0
    for x, y in loader:
        total += nn.functional.mse_loss(model(x), y, reduction="sum").item()
        n += x.size(0)
    model.train()
    return total / n


def train(args):
    torch.manual_seed(args.seed)
    ds = SyntheticRegression(dim=args.dim, seed=args.seed)
    train_ds, val_ds = random_split(ds, [192, 64], generator=torch.Generator().manual_seed(args.seed))
    train_loader = DataLoader(train_ds, batch_size=args.micro_batch, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=32)

    model = build_model(args.dim)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    model.train()

    global_step = 0
    optimizer.zero_grad(set_to_none=True)
    for epoch in range(args.epochs):
        for i, (x, y) in enumerate(train_loader):
            loss = nn.functional.mse_loss(model(x), y)
            loss = loss / args.grad_accum
            loss.backward()
            if (i + 1) % args.grad_accum == 0 or (i + 1) == len(train_loader):
                torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
                global_step += 1
                if global_step % args.eval_every == 0:
                    val = evaluate(model, val_loader)
                    print(f"epoch {epoch} step {global_step} val_mse {val:.4f}")
    return model


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--dim", type=int, default=20)
    p.add_argument("--micro_batch", type=int, default=8)
    p.add_argument("--grad_accum", type=int, default=4)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--max_grad_norm", type=float, default=1.0)
    p.add_argument("--eval_every", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


if __name__ == "__main__":
    model = train(parse_args())
