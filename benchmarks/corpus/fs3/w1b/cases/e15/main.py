import argparse

import numpy as np
import torch
import torch.nn as nn

from fl.server import FedAvgServer
from fl.user import User


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--num_users", type=int, default=6)
    p.add_argument("--users_per_round", type=int, default=3)
    p.add_argument("--num_glob_iters", type=int, default=4)
    p.add_argument("--eval_every", type=int, default=2)
    p.add_argument("--local_epochs", type=int, default=5)
    p.add_argument("--batch_size", type=int, default=16)
    p.add_argument("--learning_rate", type=float, default=0.05)
    return p.parse_args()


class Net(nn.Module):
    def __init__(self, in_dim=20, hidden=32, n_classes=4):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def make_user_data(gen, n_train=48, n_test=24, in_dim=20, n_classes=4):
    centers = torch.randn(n_classes, in_dim, generator=gen) * 2

    def draw(n):
        y = torch.randint(0, n_classes, (n,), generator=gen)
        x = centers[y] + torch.randn(n, in_dim, generator=gen)
        return x, y

    return draw(n_train), draw(n_test)


def main():
    args = get_args()
    torch.manual_seed(0)
    np.random.seed(0)
    gen = torch.Generator().manual_seed(0)
    global_model = Net()
    users = []
    for uid in range(args.num_users):
        train_data, test_data = make_user_data(gen)
        users.append(User(uid, global_model, train_data, test_data,
                          args.batch_size, args.learning_rate, args.local_epochs))
    server = FedAvgServer(global_model, users, args.num_glob_iters, args.eval_every)
    server.train(args.users_per_round)


if __name__ == "__main__":
    main()
