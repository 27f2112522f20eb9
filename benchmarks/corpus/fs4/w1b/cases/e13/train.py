import argparse

import torch
import torch.nn.functional as F

from model import SmallConvNet
from regularizers import JacobianNormRegularizer

CONFIG = {
    "num_classes": 10,
    "width": 16,
    "norm": "batch",
    "batch_size": 16,
    "lr": 0.05,
    "jacobian_weight": 0.01,
    "jacobian_warmup_steps": 2,
}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--no-jacobian", action="store_true")
    return p.parse_args()


def train_step(model, reg, x, y, step, cfg, use_reg):
    if use_reg and step >= cfg["jacobian_warmup_steps"]:
        logits, penalty = reg(model, x)
        loss = F.cross_entropy(logits, y) + cfg["jacobian_weight"] * penalty
    else:
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    return loss


def main():
    args = parse_args()
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = SmallConvNet(CONFIG["num_classes"], CONFIG["width"], norm=CONFIG["norm"])
    optimizer = torch.optim.SGD(model.parameters(), lr=CONFIG["lr"], momentum=0.9)
    reg = JacobianNormRegularizer(n_proj=1)
    model.train()
    for step in range(args.steps):
        x = torch.randn(CONFIG["batch_size"], 3, 16, 16, generator=g)
        y = torch.randint(0, CONFIG["num_classes"], (CONFIG["batch_size"],), generator=g)
        loss = train_step(model, reg, x, y, step, CONFIG, use_reg=not args.no_jacobian)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
