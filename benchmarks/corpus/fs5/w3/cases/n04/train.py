import torch
import torch.nn.functional as F

import compat  # noqa: F401
from model import FineTuneClassifier

CFG = {
    "backbone": "resnet18",
    "num_classes": 4,
    "image_size": 32,
    "batch_size": 8,
    "epochs": 3,
    "iters_per_epoch": 4,
    "lr": 1e-2,
}


def build(cfg):
    return FineTuneClassifier(cfg["backbone"], cfg["num_classes"], freeze_backbone=True)


def make_batch(cfg):
    x = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"])
    y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))
    return x, y


def evaluate(model, cfg, n_batches=2):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for _ in range(n_batches):
            x, y = make_batch(cfg)
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    return correct / total


def fit(model, cfg):
    optimizer = torch.optim.SGD(model.trainable_parameters(), lr=cfg["lr"], momentum=0.9)
    for epoch in range(cfg["epochs"]):
        model.train()
        for _ in range(cfg["iters_per_epoch"]):
            x, y = make_batch(cfg)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        acc = evaluate(model, cfg)
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build(CFG)
    fit(model, CFG)
