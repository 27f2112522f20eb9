import argparse
import warnings

import torch
import torch.nn.functional as F

from model import build_model

warnings.filterwarnings("ignore", category=FutureWarning)

CONFIGS = {
    "mlp_small": {"in_dim": 196, "hidden_dims": [128, 64], "num_classes": 10, "batch_norm": False},
    "mlp_bn": {"in_dim": 196, "hidden_dims": [256, 128], "num_classes": 10, "batch_norm": True},
}


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--arch", default="mlp_bn", choices=sorted(CONFIGS))
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=32)
    return p.parse_args()


def fake_mnist(n, gen):
    x = torch.rand(n, 1, 14, 14, generator=gen)
    y = torch.randint(0, 10, (n,), generator=gen)
    return x, y


def train(model, optimizer, data, batch_size, epoch):
    model.train()
    x_all, y_all = data
    for i in range(0, x_all.size(0), batch_size):
        x, y = x_all[i:i + batch_size], y_all[i:i + batch_size]
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: last loss {loss.item():.4f}")


def main():
    args = get_args()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    data = fake_mnist(256, gen)
    model = build_model(CONFIGS[args.arch])
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        train(model, optimizer, data, args.batch_size, epoch)


if __name__ == "__main__":
    main()
