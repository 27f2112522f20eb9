import argparse

import torch
import torch.nn.functional as F

from model import TextCNN


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--micro-batch", type=int, default=8)
    p.add_argument("--accum-steps", type=int, default=4)
    p.add_argument("--updates", type=int, default=6)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--max-norm", type=float, default=1.0)
    return p.parse_args()


def make_loader(n_batches, bs, seq=20, vocab=200):
    for _ in range(n_batches):
        tokens = torch.randint(1, vocab, (bs, seq))
        lengths = torch.randint(8, seq + 1, (bs,))
        mask = torch.arange(seq)[None, :] >= lengths[:, None]
        tokens[mask] = 0
        labels = tokens[:, 0] % 4
        yield tokens, labels


def train(args):
    model = TextCNN()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    model.train()
    opt.zero_grad(set_to_none=True)
    running = 0.0
    loader = make_loader(args.updates * args.accum_steps, args.micro_batch)
    for i, (tokens, labels) in enumerate(loader):
        logits = model(tokens)
        loss = F.cross_entropy(logits, labels) / args.accum_steps
        loss.backward()
        running += loss.item()
        if (i + 1) % args.accum_steps == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_norm)
            opt.step()
            opt.zero_grad(set_to_none=True)
            print(f"update {(i + 1) // args.accum_steps}  loss {running:.4f}")
            running = 0.0
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = train(parse_args())
