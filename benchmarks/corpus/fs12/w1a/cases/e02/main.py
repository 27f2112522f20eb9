import argparse

import torch

from solver import Solver


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--batch_size", type=int, default=32)
    p.add_argument("--z_dim", type=int, default=8)
    p.add_argument("--in_dim", type=int, default=64)
    p.add_argument("--gamma", type=float, default=6.4)
    p.add_argument("--lr_VAE", type=float, default=1e-4)
    p.add_argument("--lr_D", type=float, default=1e-4)
    p.add_argument("--print_iter", type=int, default=5)
    return vars(p.parse_args())


if __name__ == "__main__":
    torch.manual_seed(0)
    Solver(parse()).train()
