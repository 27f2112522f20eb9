import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import resnet18

CONFIG = {"num_classes": 3, "image_size": 32, "batch_size": 6, "epochs": 2, "iters": 3,
          "lr": 1e-2, "freeze": ["conv1", "bn1", "layer1", "layer2", "layer3"]}


def build_model(cfg):
    model = resnet18(weights=None)
    model.fc = nn.Linear(model.fc.in_features, cfg["num_classes"])
    for name, module in model.named_children():
        if name in cfg["freeze"]:
            for p in module.parameters():
                p.requires_grad = False
    return model


def set_train_mode(model, cfg):
    model.train()
    for name, module in model.named_children():
        if name in cfg["freeze"]:
            module.eval()


@torch.no_grad()
def evaluate(model, batches):
    model.eval()
    correct = total = 0
    for x, y in batches:
        pred = model(x).argmax(1)
        correct += (pred == y).sum().item()
        total += y.numel()
    return correct / total


def main(cfg):
    model = build_model(cfg)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(trainable, lr=cfg["lr"], momentum=0.9, weight_decay=1e-4)
    size = cfg["image_size"]
    val = [(torch.randn(4, 3, size, size), torch.randint(0, cfg["num_classes"], (4,)))]
    for epoch in range(cfg["epochs"]):
        set_train_mode(model, cfg)
        for _ in range(cfg["iters"]):
            x = torch.randn(cfg["batch_size"], 3, size, size)
            y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = evaluate(model, val)
        print(f"epoch {epoch}  loss {loss.item():.4f}  val_acc {acc:.2f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = main(CONFIG)
