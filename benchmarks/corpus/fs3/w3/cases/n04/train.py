import copy

import torch
import torch.nn as nn

from model import HeadOnlyClassifier

CFG = {"num_classes": 4, "epochs": 2, "steps_per_epoch": 2, "batch_size": 4, "lr": 1e-3,
       "image_size": 16, "swa_last": 3}


def batches(seed, n):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n):
        x = torch.randn(CFG["batch_size"], 3, CFG["image_size"], CFG["image_size"], generator=g)
        y = torch.randint(0, CFG["num_classes"], (CFG["batch_size"],), generator=g)
        yield x, y


def validate(model, criterion):
    model.eval()
    total, n = 0.0, 0
    with torch.no_grad():
        for x, y in batches(123, 1):
            total += criterion(model(x), y).item() * len(y)
            n += len(y)
    model.train()
    return total / n


def average_heads(snapshots):
    avg = copy.deepcopy(snapshots[0])
    for k in avg:
        avg[k] = torch.stack([s[k].float() for s in snapshots]).mean(0)
    return avg


def main():
    torch.manual_seed(0)
    model = HeadOnlyClassifier(CFG["num_classes"])
    optimizer = torch.optim.AdamW(model.head.parameters(), lr=CFG["lr"])
    criterion = nn.CrossEntropyLoss()

    snapshots = []
    model.train()
    for epoch in range(CFG["epochs"]):
        for x, y in batches(epoch, CFG["steps_per_epoch"]):
            optimizer.zero_grad(set_to_none=True)
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            snapshots.append(copy.deepcopy(model.head.state_dict()))
        val = validate(model, criterion)
        print(f"epoch {epoch} train_loss {loss.item():.4f} val_loss {val:.4f}")

    model.head.load_state_dict(average_heads(snapshots[-CFG["swa_last"]:]))
    print("final val", round(validate(model, criterion), 4))
    return model


if __name__ == "__main__":
    model = main()
