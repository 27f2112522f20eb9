import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

from model import SmallNet
from utils import AverageMeter

CFG = {
    "epochs": 2,
    "train_size": 192,
    "val_size": 64,
    "batch_size": 16,
    "lr": 0.05,
    "eval_every": 4,
    "seed": 0,
}


def make_loader(n, batch_size, shuffle, generator):
    x = torch.randn(n, 3, 16, 16, generator=generator)
    y = torch.randint(0, 10, (n,), generator=generator)
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=shuffle)


def evaluate(accelerator, model, loader, criterion):
    model.eval()
    loss_meter, correct, total = AverageMeter("val_loss"), 0, 0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            logits, y = accelerator.gather_for_metrics((logits, y))
            loss_meter.update(criterion(logits, y).item(), y.size(0))
            correct += (logits.argmax(1) == y).sum().item()
            total += y.size(0)
    return loss_meter.avg, correct / total


def main(cfg):
    set_seed(cfg["seed"])
    accelerator = Accelerator(cpu=True)
    gen = torch.Generator().manual_seed(cfg["seed"])
    train_loader = make_loader(cfg["train_size"], cfg["batch_size"], True, gen)
    val_loader = make_loader(cfg["val_size"], 32, False, gen)

    model = SmallNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
    model, optimizer, train_loader, val_loader = accelerator.prepare(
        model, optimizer, train_loader, val_loader
    )
    history = []

    step = 0
    for epoch in range(cfg["epochs"]):
        model.train()
        loss_meter = AverageMeter("loss")
        for x, y in train_loader:
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            loss_meter.update(loss.item(), x.size(0))
            step += 1

            if step % cfg["eval_every"] == 0:
                val_loss, val_acc = evaluate(accelerator, model, val_loader, criterion)
                model.train()
                history.append((step, val_loss, val_acc))
                accelerator.print(
                    f"epoch {epoch} step {step} {loss_meter} val {val_loss:.4f} acc {val_acc:.3f}"
                )
    return accelerator.unwrap_model(model), history


if __name__ == "__main__":
    model, history = main(CFG)
