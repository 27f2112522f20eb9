import torch
import torch.nn as nn

from model import RNNModel

ARGS = dict(bptt=12, batch_size=6, epochs=2, lr=5.0, clip=0.25, ntoken=100)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def train_epoch(model, data, criterion, args, lr):
    model.train()
    total = 0.0
    hidden = model.init_hidden(args["batch_size"])
    for batch, i in enumerate(range(0, data.size(0) - 1, args["bptt"])):
        inp, targets = get_batch(data, i, args["bptt"])
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(inp, hidden)
        loss = criterion(output.view(-1, args["ntoken"]), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args["clip"])
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total += loss.item()
    return total / (batch + 1)


def main(args):
    corpus = torch.randint(0, args["ntoken"], (600,))
    train_data = batchify(corpus, args["batch_size"])
    model = RNNModel(ntoken=args["ntoken"], tie_weights=False)
    criterion = nn.CrossEntropyLoss()
    lr = args["lr"]
    for epoch in range(args["epochs"]):
        loss = train_epoch(model, train_data, criterion, args, lr)
        print(f"epoch {epoch}  loss {loss:.4f}  lr {lr}")
        lr /= 4.0
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = main(ARGS)
