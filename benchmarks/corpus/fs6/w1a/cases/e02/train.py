import compat  # noqa: F401
import timm
import torch
import torch.nn.functional as F

from importance import TaylorImportance

CONFIG = {
    "arch": "resnet18",
    "num_classes": 10,
    "img_size": 32,
    "batch_size": 4,
    "lr": 0.05,
    "steps": 6,
    "importance_from_step": 2,
    "importance_track": "bn",
    "prune_fraction": 0.1,
}


def synthetic_batch(cfg, gen):
    x = torch.randn(cfg["batch_size"], 3, cfg["img_size"], cfg["img_size"], generator=gen)
    y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=gen)
    return x, y


def train(cfg):
    torch.manual_seed(0)
    model = timm.create_model(cfg["arch"], pretrained=False, num_classes=cfg["num_classes"])
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
    tracker = TaylorImportance(cfg["importance_track"])
    gen = torch.Generator().manual_seed(1)

    model.train()
    for step in range(cfg["steps"]):
        if step == cfg["importance_from_step"]:
            tracker.attach(model)
        x, y = synthetic_batch(cfg, gen)
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")

    tracker.detach()
    pruned = tracker.ranking(cfg["prune_fraction"])
    print(f"{len(pruned)} channels selected for pruning")


if __name__ == "__main__":
    train(CONFIG)
