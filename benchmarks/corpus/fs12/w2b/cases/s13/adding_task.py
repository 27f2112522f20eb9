import argparse

import torch
import torch.nn as nn

import utils
from model import coRNN

parser = argparse.ArgumentParser(description="training parameters")
parser.add_argument("--n_hid", type=int, default=64)
parser.add_argument("--T", type=int, default=40)
parser.add_argument("--max_steps", type=int, default=60)
parser.add_argument("--batch", type=int, default=32)
parser.add_argument("--lr", type=float, default=2e-3)
parser.add_argument("--dt", type=float, default=0.042)
parser.add_argument("--gamma", type=float, default=2.7)
parser.add_argument("--epsilon", type=float, default=4.7)
parser.add_argument("--dropout", type=float, default=0.2)
parser.add_argument("--log_interval", type=int, default=20)


def main(argv=None):
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = coRNN(2, args.n_hid, 1, args.dt, args.gamma, args.epsilon, args.dropout)
    objective = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    model.train()
    for i in range(args.max_steps):
        data, label = utils.get_batch(args.T, args.batch, gen)
        out = model(data)
        loss = objective(out, label.unsqueeze(1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if i % args.log_interval == 0 and i != 0:
            test_mse = utils.test(model, objective, args.T, 200, gen)
            print(f"step {i:5d} train_mse {loss.item():.4f} test_mse {test_mse:.4f}")
    return model


if __name__ == "__main__":
    main()
