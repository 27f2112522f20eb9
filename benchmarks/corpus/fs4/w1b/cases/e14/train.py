import argparse

import torch

from conditional_gan_model import ConditionalGANModel


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--gan_type", default="wgan-gp", choices=["gan", "wgan-gp"])
    p.add_argument("--ngf", type=int, default=16)
    p.add_argument("--ndf", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--lambda_A", type=float, default=100.0)
    p.add_argument("--batch_size", type=int, default=2)
    p.add_argument("--fine_size", type=int, default=32)
    p.add_argument("--iters", type=int, default=3)
    return p.parse_args()


def blur(x):
    k = torch.ones(3, 1, 5, 1) / 5.0
    return torch.nn.functional.conv2d(x, k, padding=(2, 0), groups=3)


def main():
    opt = parse_args()
    torch.manual_seed(0)
    model = ConditionalGANModel(opt)
    for i in range(opt.iters):
        sharp = torch.rand(opt.batch_size, 3, opt.fine_size, opt.fine_size) * 2 - 1
        model.set_input(blur(sharp), sharp)
        model.optimize_parameters()
        print(i, {k: round(v, 4) for k, v in model.get_current_errors().items()})


if __name__ == "__main__":
    main()
