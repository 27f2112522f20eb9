import torch
import torch.nn as nn

from models import build_model

CFG = {
    "arch": "resnet18",
    "num_classes": 5,
    "freeze_backbone": True,
    "trainable_prefixes": ("classifier",),
    "lr": 1e-3,
    "momentum": 0.9,
    "epochs": 1,
    "steps_per_epoch": 3,
    "batch_size": 4,
    "img_size": 64,
}


def fake_batches(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    for _ in range(cfg["steps_per_epoch"]):
        x = torch.randn(cfg["batch_size"], 3, cfg["img_size"], cfg["img_size"], generator=g)
        y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=g)
        yield x, y


def train_one_epoch(model, criterion, optimizer, batches, epoch):
    model.train()
    running = 0.0
    for step, (inputs, labels) in enumerate(batches):
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running += loss.item()
        print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    return running


def main():
    torch.manual_seed(0)
    model = build_model(CFG)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=CFG["momentum"])
    for epoch in range(CFG["epochs"]):
        train_one_epoch(model, criterion, optimizer, fake_batches(CFG, epoch), epoch)


if __name__ == "__main__":
    main()
