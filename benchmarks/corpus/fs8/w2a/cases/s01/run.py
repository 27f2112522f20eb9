import argparse

import torch

from inference import SNPE


def gaussian_simulator(theta):
    return theta + 0.1 * torch.randn_like(theta)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--sims", type=int, default=128)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--retrain-from-scratch", action="store_true", default=True)
    return p.parse_args()


def main():
    torch.manual_seed(0)
    args = parse_args()
    prior = torch.distributions.Independent(
        torch.distributions.Uniform(-2 * torch.ones(3), 2 * torch.ones(3)), 1
    )
    config = {
        "x_dim": 3,
        "hidden": 32,
        "lr": 1e-3,
        "batch_size": 32,
        "epochs": args.epochs,
        "retrain_from_scratch": args.retrain_from_scratch,
    }
    inference = SNPE(gaussian_simulator, prior, config)
    posterior_net, losses = inference(args.rounds, args.sims)
    for r, l in enumerate(losses):
        print(f"round {r}: loss {l:.4f}")
    return posterior_net


if __name__ == "__main__":
    main()
