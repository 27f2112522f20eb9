import argparse
import math

import torch
import torch.nn as nn

from model import RNNModel
from utils import batchify, get_batch, repackage_hidden


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="LSTM")
    p.add_argument("--emsize", type=int, default=32)
    p.add_argument("--nhid", type=int, default=32)
    p.add_argument("--nlayers", type=int, default=2)
    p.add_argument("--lr", type=float, default=5.0)
    p.add_argument("--clip", type=float, default=0.25)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch_size", type=int, default=8)
    p.add_argument("--bptt", type=int, default=12)
    p.add_argument("--tied", action="store_true", default=True)
    p.add_argument("--seed", type=int, default=1111)
    return p.parse_args()


def evaluate(model, source, criterion, bptt, bsz):
    model.eval()
    total = 0.0
    hidden = model.init_hidden(bsz)
    with torch.no_grad():
        for i in range(0, source.size(0) - 1, bptt):
            data, targets = get_batch(source, i, bptt)
            output, hidden = model(data, hidden)
            total += len(data) * criterion(output.view(-1, output.size(-1)), targets).item()
    return total / (len(source) - 1)


def train_epoch(model, train_data, criterion, args, ntokens):
    model.train()
    hidden = model.init_hidden(args.batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i, args.bptt)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output.view(-1, ntokens), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-args.lr)
    return loss.item()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    ntokens = 50
    corpus = torch.randint(0, ntokens, (1200,))
    train_data = batchify(corpus[:1000], args.batch_size)
    val_data = batchify(corpus[1000:], 4)
    model = RNNModel(args.model, ntokens, args.emsize, args.nhid, args.nlayers, tie_weights=args.tied)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(1, args.epochs + 1):
        tr = train_epoch(model, train_data, criterion, args, ntokens)
        val = evaluate(model, val_data, criterion, args.bptt, 4)
        print(f"epoch {epoch} train {tr:.3f} valid {val:.3f} ppl {math.exp(val):.1f}")
    return model


if __name__ == "__main__":
    model = main()
