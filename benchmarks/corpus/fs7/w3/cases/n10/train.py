import compat  # noqa: F401

import torch
import torchvision
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from engine import evaluate, train_one_epoch

ARGS = {
    "model": "resnet18",
    "num_classes": 10,
    "batch_size": 8,
    "epochs": 2,
    "lr": 0.05,
    "momentum": 0.9,
    "weight_decay": 1e-4,
    "label_smoothing": 0.1,
    "amp": True,
    "clip_grad_norm": 2.0,
    "print_freq": 1,
}


def main(args):
    torch.manual_seed(0)
    device = torch.device("cpu")
    images = torch.randn(24, 3, 16, 16)
    targets = torch.randint(0, args["num_classes"], (24,))
    train_loader = DataLoader(TensorDataset(images[:16], targets[:16]), batch_size=args["batch_size"], shuffle=True)
    val_loader = DataLoader(TensorDataset(images[16:], targets[16:]), batch_size=args["batch_size"])

    model = torchvision.models.get_model(args["model"], weights=None, num_classes=args["num_classes"])
    model.to(device)
    criterion = nn.CrossEntropyLoss(label_smoothing=args["label_smoothing"])
    optimizer = torch.optim.SGD(model.parameters(), lr=args["lr"], momentum=args["momentum"],
                                weight_decay=args["weight_decay"])
    scaler = torch.amp.GradScaler("cpu") if args["amp"] else None
    lr_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args["epochs"])

    for epoch in range(args["epochs"]):
        train_one_epoch(model, criterion, optimizer, train_loader, device, epoch, args, scaler)
        lr_scheduler.step()
        evaluate(model, criterion, val_loader, device)
    return model


if __name__ == "__main__":
    model = main(ARGS)
