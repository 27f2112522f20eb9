import compat  # noqa: F401
import timm
import torch
import torch.nn.functional as F

from optim_utils import generate_param_groups

CONFIG = {
    "arch": "resnet10t",
    "num_classes": 4,
    "base_lr": 1e-2,
    "groups": [
        {"match": "select", "target": "conv1", "lr": 1e-3},
        {"match": "select", "target": "layer1", "lr": 1e-3},
    ],
    "epochs": 2,
    "steps_per_epoch": 3,
    "batch_size": 8,
    "image_size": 32,
}

MATCHERS = {
    "select": lambda target: (lambda net: getattr(net, target)),
    "filter": lambda target: (lambda name: name.startswith(target + ".")),
}


def build_model(cfg):
    return timm.create_model(cfg["arch"], pretrained=False, num_classes=cfg["num_classes"])


def build_optimizer(model, cfg):
    groups = cfg["groups"]
    param_groups = generate_param_groups(
        network=model,
        layer_matches=[MATCHERS[g["match"]](g["target"]) for g in groups],
        match_types=[g["match"] for g in groups],
        lr_values=[g["lr"] for g in groups],
        include_others=True,
    )
    return torch.optim.SGD(param_groups, lr=cfg["base_lr"], momentum=0.9)


def run(cfg):
    model = build_model(cfg)
    optimizer = build_optimizer(model, cfg)
    for i, group in enumerate(optimizer.param_groups):
        print(f"group {i}: lr={group['lr']}")

    model.train()
    gen = torch.Generator().manual_seed(1)
    for epoch in range(cfg["epochs"]):
        for step in range(cfg["steps_per_epoch"]):
            images = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"], generator=gen)
            labels = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=gen)
            loss = F.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    return model, optimizer


if __name__ == "__main__":
    torch.manual_seed(0)
    model, optimizer = run(CONFIG)
