import torch
import torch.nn.functional as F

from ema import build_ema, maybe_update
from model import SensorNet

CONFIG = {
    "seed": 0,
    "steps": 30,
    "batch_size": 32,
    "lr": 0.05,
    "ema": {"enabled": True, "decay": 0.9, "start_step": 5, "every": 1},
}


def sample_batch(gen, batch_size):
    x = torch.randn(batch_size, 12, generator=gen) * 2.0 + 3.0
    y = (x[:, :3].sum(1) > 9.0).long() + (x[:, 3] > 4.0).long()
    return x, y


@torch.no_grad()
def evaluate(net, batches):
    net.eval()
    correct = total = 0
    for x, y in batches:
        correct += (net(x).argmax(1) == y).sum().item()
        total += y.numel()
    return correct / total


def main(cfg):
    torch.manual_seed(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"] + 1)
    model = SensorNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
    ema_model = build_ema(model, cfg["ema"])
    val_batches = [sample_batch(gen, 64) for _ in range(2)]

    for step in range(1, cfg["steps"] + 1):
        model.train()
        x, y = sample_batch(gen, cfg["batch_size"])
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        maybe_update(ema_model, model, step, cfg["ema"])

    acc = evaluate(model, val_batches)
    ema_acc = evaluate(ema_model, val_batches) if ema_model is not None else float("nan")
    print(f"final loss {loss.item():.4f}  val acc {acc:.3f}  ema val acc {ema_acc:.3f}")
    return model, ema_model


if __name__ == "__main__":
    model, ema_model = main(CONFIG)
