import torch
import torch.nn.functional as F

from model import LinearProbe

CONFIG = {"num_classes": 5, "epochs": 2, "batches_per_epoch": 4, "batch_size": 8,
          "lr": 0.01, "momentum": 0.9, "weight_decay": 1e-4, "image_size": 64}


def make_batch(cfg):
    x = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"])
    y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))
    return x, y


def evaluate(model, batches):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in batches:
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    model.train()
    return correct / total


def main(cfg=CONFIG):
    torch.manual_seed(0)
    model = LinearProbe(cfg["num_classes"])
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(trainable, lr=cfg["lr"], momentum=cfg["momentum"],
                                weight_decay=cfg["weight_decay"])
    val = [make_batch(cfg) for _ in range(2)]
    model.train()
    for epoch in range(cfg["epochs"]):
        for _ in range(cfg["batches_per_epoch"]):
            x, y = make_batch(cfg)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {evaluate(model, val):.3f}")
    return model


if __name__ == "__main__":
    model = main()
