import compat  # noqa: F401
import timm
import torch

from losses import MutualLoss

CONFIG = {
    "models": ["resnet10t", "mobilenetv3_small_050"],
    "num_classes": 10,
    "lr": 0.05,
    "epochs": 1,
    "steps_per_epoch": 3,
    "batch_size": 8,
    "image_size": 32,
    "temperature": 3.0,
}


def build(cfg):
    models = [timm.create_model(name, pretrained=False, num_classes=cfg["num_classes"])
              for name in cfg["models"]]
    optimizers = [torch.optim.SGD(m.parameters(), lr=cfg["lr"], momentum=0.9, weight_decay=5e-4)
                  for m in models]
    return models, optimizers


def train_epoch(models, optimizers, criterion, cfg):
    for m in models:
        m.train()
    for step in range(cfg["steps_per_epoch"]):
        x = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"])
        y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))
        outputs = [m(x) for m in models]
        losses = []
        for i in range(len(models)):
            loss = criterion(outputs, y, i)
            optimizers[i].zero_grad()
            loss.backward()
            optimizers[i].step()
            losses.append(loss.item())
        print(f"step {step} " + " ".join(f"{l:.3f}" for l in losses))


def main():
    torch.manual_seed(0)
    models, optimizers = build(CONFIG)
    criterion = MutualLoss(CONFIG["temperature"])
    for epoch in range(CONFIG["epochs"]):
        train_epoch(models, optimizers, criterion, CONFIG)


if __name__ == "__main__":
    main()
