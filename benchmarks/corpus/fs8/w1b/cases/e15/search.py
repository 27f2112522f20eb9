import argparse
import random

import torch
import torch.nn.functional as F

from base_mnasnet import CANDIDATE_OPS, MNASNet

SEARCH_SPACE = {
    "op": sorted(CANDIDATE_OPS),
    "kernel_size": [3, 5],
    "n_layers": [1, 2],
    "skip": [True, False],
}


def sample_arch(rng, n_stages=7):
    return [{k: rng.choice(v) for k, v in SEARCH_SPACE.items()} for _ in range(n_stages)]


def train_trial(model, steps, lr, batch_size=4):
    g = torch.Generator().manual_seed(0)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.train()
    for step in range(steps):
        images = torch.randn(batch_size, 3, 32, 32, generator=g)
        labels = torch.randint(0, 10, (batch_size,), generator=g)
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=2)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--alpha", type=float, default=0.5)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    torch.manual_seed(args.seed)
    for trial in range(args.trials):
        arch = sample_arch(rng)
        model = MNASNet(args.alpha, arch)
        loss = train_trial(model, args.steps, args.lr)
        print(f"trial {trial}: {[c['op'] for c in arch]} final loss {loss:.4f}")


if __name__ == "__main__":
    main()
