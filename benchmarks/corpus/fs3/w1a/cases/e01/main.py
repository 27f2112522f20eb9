"""Fine-tune a SqueezeNet on a toy 5-class task, then explain a few predictions."""
import compat  # noqa: F401
import torch
import torch.nn as nn
import torchvision

from cam import GradCAM

CONFIG = {
    "arch": "squeezenet1_1",
    "num_classes": 5,
    "image_size": 64,
    "epochs": 2,
    "batch_size": 8,
    "lr": 1e-3,
    "cam_layer": "features.12.expand3x3",
}


def build_model(cfg):
    return getattr(torchvision.models, cfg["arch"])(weights=None, num_classes=cfg["num_classes"])


def make_data(cfg, n=16):
    x = torch.randn(n, 3, cfg["image_size"], cfg["image_size"])
    y = torch.randint(0, cfg["num_classes"], (n,))
    return x, y


def train(model, cfg):
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    crit = nn.CrossEntropyLoss()
    x, y = make_data(cfg)
    model.train()
    for epoch in range(cfg["epochs"]):
        for i in range(0, len(x), cfg["batch_size"]):
            xb, yb = x[i:i + cfg["batch_size"]], y[i:i + cfg["batch_size"]]
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


def explain(model, cfg):
    layer = model.get_submodule(cfg["cam_layer"])
    images, _ = make_data(cfg, n=4)
    with GradCAM(model, layer) as cam:
        maps = cam(images)
    print("cam maps:", tuple(maps.shape), f"mean {maps.mean().item():.3f}")


def main():
    torch.manual_seed(0)
    model = build_model(CONFIG)
    train(model, CONFIG)
    explain(model, CONFIG)


if __name__ == "__main__":
    main()
