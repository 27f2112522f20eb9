import torch
import torch.nn as nn

from model import RNNModel

NTOKENS = 60
BPTT = 8
lr = 20.0
clip = 0.25


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i):
    seq_len = min(BPTT, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def train(model, train_data, criterion):
    model.train()
    hidden = None
    for batch, i in enumerate(range(0, train_data.size(0) - 1, BPTT)):
        data, targets = get_batch(train_data, i)
        if hidden is not None:
            hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()

        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.add_(p.grad, alpha=-lr)
        print(f"batch {batch} loss {loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    corpus = torch.randint(0, NTOKENS, (33, 4))
    train(RNNModel(NTOKENS), corpus, nn.CrossEntropyLoss())
