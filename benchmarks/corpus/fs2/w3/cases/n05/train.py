import math

import torch
import torch.nn as nn

from model import RNNModel

ARGS = dict(ntokens=60, emsize=32, nhid=32, nlayers=2, dropout=0.2, tied=True,
            lr=0.01, clip=0.25, epochs=5, batch_size=8, eval_batch_size=4, bptt=16, seed=1111)


def synthetic_corpus(n, ntokens, g):
    """A token stream with local structure: each token mostly predicts the next one."""
    ids = torch.empty(n, dtype=torch.long)
    ids[0] = 0
    jumps = torch.randint(1, 4, (n,), generator=g)
    noise = torch.rand(n, generator=g) < 0.1
    rand = torch.randint(0, ntokens, (n,), generator=g)
    for i in range(1, n):
        ids[i] = rand[i] if noise[i] else (ids[i - 1] + jumps[i]) % ntokens
    return ids


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def evaluate(model, criterion, data_source, args):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(args["eval_batch_size"])
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, args["bptt"]):
            data, targets = get_batch(data_source, i, args["bptt"])
            output, hidden = model(data, hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train(model, criterion, optimizer, train_data, args):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(args["batch_size"])
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args["bptt"])):
        data, targets = get_batch(train_data, i, args["bptt"])
        hidden = repackage_hidden(hidden)
        optimizer.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args["clip"])
        optimizer.step()
        total_loss += loss.item()
    return total_loss / (batch + 1)


def main(args):
    g = torch.Generator().manual_seed(args["seed"])
    torch.manual_seed(args["seed"])
    train_data = batchify(synthetic_corpus(1280, args["ntokens"], g), args["batch_size"])
    val_data = batchify(synthetic_corpus(256, args["ntokens"], g), args["eval_batch_size"])
    model = RNNModel(args["ntokens"], args["emsize"], args["nhid"], args["nlayers"],
                     args["dropout"], args["tied"])
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args["lr"])
    for epoch in range(1, args["epochs"] + 1):
        train_loss = train(model, criterion, optimizer, train_data, args)
        val_loss = evaluate(model, criterion, val_data, args)
        print(f"| epoch {epoch} | train loss {train_loss:.2f} | valid loss {val_loss:.2f} "
              f"| valid ppl {math.exp(val_loss):.2f}")


if __name__ == "__main__":
    main(ARGS)
