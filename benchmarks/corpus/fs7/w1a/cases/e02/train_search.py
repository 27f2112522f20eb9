import torch

from architect import Architect
from model_search import RNNModelSearch
from utils import batchify, get_batch, repackage_hidden

args = dict(ntokens=50, emsize=32, nhid=32, lr=20.0, clip=0.25,
            bptt=6, batch_size=4, epochs=1, seed=3)


def train(model, architect, optimizer, train_data, val_data):
    model.train()
    hidden = model.init_hidden(args["batch_size"])
    hidden_valid = model.init_hidden(args["batch_size"])
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args["bptt"])):
        if i + args["bptt"] >= val_data.size(0) - 1:
            break
        inp_valid, target_valid = get_batch(val_data, i, args["bptt"])
        inp, target = get_batch(train_data, i, args["bptt"])

        hidden_valid = repackage_hidden(hidden_valid)
        hidden = repackage_hidden(hidden)
        hidden_valid = architect.step(hidden_valid, inp_valid, target_valid)

        optimizer.zero_grad()
        loss, hidden = model._loss(hidden, inp, target)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.weights(), args["clip"])
        optimizer.step()
        print(f"batch {batch} loss {loss.item():.3f}")


def main():
    torch.manual_seed(args["seed"])
    corpus = torch.randint(0, args["ntokens"], (400,))
    train_data = batchify(corpus[:240], args["batch_size"])
    val_data = batchify(corpus[240:], args["batch_size"])
    model = RNNModelSearch(args["ntokens"], args["emsize"], args["nhid"])
    architect = Architect(model)
    optimizer = torch.optim.SGD(model.weights(), lr=args["lr"], weight_decay=5e-7)
    for epoch in range(args["epochs"]):
        train(model, architect, optimizer, train_data, val_data)


if __name__ == "__main__":
    main()
