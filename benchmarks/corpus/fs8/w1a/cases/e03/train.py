import argparse

import torch

from maml import meta_step
from model import OmniglotNet


def sample_tasks(task_num, n_way, k_spt, k_qry, size=28):
    def split(k):
        x = torch.randn(task_num, n_way * k, 1, size, size)
        y = torch.arange(n_way).repeat_interleave(k).expand(task_num, -1).contiguous()
        return x, y

    x_spt, y_spt = split(k_spt)
    x_qry, y_qry = split(k_qry)
    return x_spt, y_spt, x_qry, y_qry


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n-way", type=int, default=5)
    parser.add_argument("--k-spt", type=int, default=1)
    parser.add_argument("--k-qry", type=int, default=3)
    parser.add_argument("--task-num", type=int, default=4)
    parser.add_argument("--norm", default="batch", choices=["batch", "group", "none"])
    parser.add_argument("--meta-lr", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()

    torch.manual_seed(42)
    net = OmniglotNet(args.n_way, norm=args.norm)
    meta_opt = torch.optim.Adam(net.parameters(), lr=args.meta_lr)
    net.train()
    for epoch in range(args.epochs):
        batch = sample_tasks(args.task_num, args.n_way, args.k_spt, args.k_qry)
        loss, acc = meta_step(net, meta_opt, batch)
        print(f"epoch {epoch}: query loss {loss:.4f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
