import math

import torch
import torch.nn as nn

from model import RNNModel

args = dict(emsize=48, nhid=48, nlayers=2, lr=4.0, clip=0.25, epochs=3, bptt=12,
            batch_size=8, eval_batch_size=4, ntokens=50)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i):
    seq_len = min(args["bptt"], len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def make_corpus(n, ntokens):
    g = torch.Generator().manual_seed(1)
    trans = torch.softmax(3 * torch.randn(ntokens, ntokens, generator=g), dim=-1)
    seq = [0]
    for _ in range(n - 1):
        seq.append(torch.multinomial(trans[seq[-1]], 1, generator=g).item())
    return torch.tensor(seq)


def evaluate(model, criterion, data_source):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(args["eval_batch_size"])
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, args["bptt"]):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train_epoch(model, criterion, optimizer, train_data, epoch):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(args["batch_size"])
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args["bptt"])):
        data, targets = get_batch(train_data, i)
        hidden = repackage_hidden(hidden)
        optimizer.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args["clip"])
        optimizer.step()
        total_loss += loss.item()
    return total_loss / (batch + 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    corpus = make_corpus(1800, args["ntokens"])
    train_data = batchify(corpus[:1500], args["batch_size"])
    val_data = batchify(corpus[1500:], args["eval_batch_size"])

    model = RNNModel(args["ntokens"], args["emsize"], args["nhid"], args["nlayers"])
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args["lr"])
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)

    for epoch in range(1, args["epochs"] + 1):
        train_loss = train_epoch(model, criterion, optimizer, train_data, epoch)
        val_loss = evaluate(model, criterion, val_data)
        scheduler.step()
        print(f"epoch {epoch} train ppl {math.exp(train_loss):7.2f} valid ppl {math.exp(val_loss):7.2f}")
