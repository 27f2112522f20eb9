import math
import time

import torch
import torch.nn as nn

from data import Corpus, batchify, get_batch
from model import RNNModel

config = {
    "emsize": 64,
    "nhid": 64,
    "nlayers": 2,
    "lr": 2.0,
    "clip": 0.25,
    "epochs": 2,
    "batch_size": 20,
    "eval_batch_size": 10,
    "bptt": 35,
    "dropout": 0.2,
    "seed": 1111,
    "log_interval": 10,
}


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def evaluate(model, data_source, criterion, cfg):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(cfg["eval_batch_size"])
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, cfg["bptt"]):
            data, targets = get_batch(data_source, i, cfg["bptt"])
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train_epoch(model, train_data, criterion, optimizer, cfg, epoch):
    model.train()
    total_loss = 0.0
    start = time.time()
    hidden = model.init_hidden(cfg["batch_size"])
    for batch, i in enumerate(range(0, train_data.size(0) - 1, cfg["bptt"])):
        data, targets = get_batch(train_data, i, cfg["bptt"])
        hidden = repackage_hidden(hidden)
        optimizer.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["clip"])
        optimizer.step()
        total_loss += loss.item()
        if batch % cfg["log_interval"] == 0 and batch > 0:
            cur_loss = total_loss / cfg["log_interval"]
            elapsed = time.time() - start
            lr = optimizer.param_groups[0]["lr"]
            print(f"| epoch {epoch:3d} | {batch:5d} batches | lr {lr:02.2f} | "
                  f"ms/batch {elapsed * 1000 / cfg['log_interval']:5.2f} | "
                  f"loss {cur_loss:5.2f} | ppl {math.exp(cur_loss):8.2f}")
            total_loss = 0.0
            start = time.time()


def main(cfg):
    torch.manual_seed(cfg["seed"])
    corpus = Corpus()
    train_data = batchify(corpus.train, cfg["batch_size"])
    val_data = batchify(corpus.valid, cfg["eval_batch_size"])
    model = RNNModel(corpus.vocab_size, cfg["emsize"], cfg["nhid"], cfg["nlayers"], cfg["dropout"])
    criterion = nn.CrossEntropyLoss()

    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    best_val_loss = None
    for epoch in range(1, cfg["epochs"] + 1):
        train_epoch(model, train_data, criterion, optimizer, cfg, epoch)
        val_loss = evaluate(model, val_data, criterion, cfg)
        print(f"| end of epoch {epoch:3d} | valid loss {val_loss:5.2f} | valid ppl {math.exp(val_loss):8.2f}")
        if best_val_loss is None or val_loss < best_val_loss:
            best_val_loss = val_loss
        else:
            for group in optimizer.param_groups:
                group["lr"] /= 4.0


if __name__ == "__main__":
    main(config)
