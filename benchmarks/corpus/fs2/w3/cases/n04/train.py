import torch
import torch.nn as nn

from model import LinearProbe

CFG = dict(num_classes=4, image_size=64, batch_size=8, epochs=2, steps_per_epoch=4,
           lr=0.01, momentum=0.9, weight_decay=5e-4, seed=0)


def synthetic_loader(cfg, n_batches, offset):
    g = torch.Generator().manual_seed(cfg["seed"] + offset)
    for _ in range(n_batches):
        y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=g)
        x = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"], generator=g)
        x += y.view(-1, 1, 1, 1).float() * 0.3
        yield x, y


def train_one_epoch(model, loader, criterion, optimizer):
    model.train()
    total = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = count = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
        count += y.numel()
    return correct / count


def main(cfg):
    torch.manual_seed(cfg["seed"])
    model = LinearProbe(cfg["num_classes"], freeze_backbone=True)
    params_to_update = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params_to_update, lr=cfg["lr"], momentum=cfg["momentum"],
                                weight_decay=cfg["weight_decay"])
    criterion = nn.CrossEntropyLoss()
    for epoch in range(cfg["epochs"]):
        loss = train_one_epoch(model, synthetic_loader(cfg, cfg["steps_per_epoch"], epoch),
                               criterion, optimizer)
        acc = evaluate(model, synthetic_loader(cfg, 2, 100 + epoch))
        print(f"epoch {epoch}: train loss {loss:.4f} val acc {acc:.3f}")


if __name__ == "__main__":
    main(CFG)
