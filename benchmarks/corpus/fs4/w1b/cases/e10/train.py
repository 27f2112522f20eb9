import compat  # noqa: F401
import argparse

import timm
import torch
import torch.nn as nn

from monitor import GradientMonitor

CONFIG = {
    "model": "resnet18",
    "num_classes": 10,
    "img_size": 32,
    "batch_size": 8,
    "steps": 4,
    "lr": 0.05,
    "monitor_layers": ["layer1", "layer2.1.bn2", "fc"],
}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=CONFIG["steps"])
    p.add_argument("--monitor-every", type=int, default=2)
    return p.parse_args()


def synthetic_batches(n, cfg):
    g = torch.Generator().manual_seed(0)
    for _ in range(n):
        x = torch.randn(cfg["batch_size"], 3, cfg["img_size"], cfg["img_size"], generator=g)
        y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=g)
        yield x, y


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = timm.create_model(CONFIG["model"], pretrained=False, num_classes=CONFIG["num_classes"])
    optimizer = torch.optim.SGD(model.parameters(), lr=CONFIG["lr"], momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    monitor = GradientMonitor(model, CONFIG["monitor_layers"], every_n_steps=args.monitor_every).attach()

    model.train()
    for step, (x, y) in enumerate(synthetic_batches(args.steps, CONFIG)):
        logits = model(x)
        loss = criterion(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        monitor.step()
        print(f"step {step} loss {loss.item():.4f}")

    monitor.detach()
    print({k: round(v, 4) for k, v in monitor.summary().items()})


if __name__ == "__main__":
    main()
