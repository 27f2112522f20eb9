import argparse

import compat  # noqa: F401
import timm
import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

from sam import SAM


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="resnet10t")
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--rho", type=float, default=0.05)
    parser.add_argument("--label-smoothing", type=float, default=0.1)
    return parser.parse_args()


def build_loader(args):
    g = torch.Generator().manual_seed(0)
    images = torch.randn(32, 3, 32, 32, generator=g)
    labels = torch.randint(0, args.num_classes, (32,), generator=g)
    return DataLoader(TensorDataset(images, labels), batch_size=args.batch_size, shuffle=True, generator=g)


def train_one_epoch(model, loader, criterion, optimizer, accelerator, epoch):
    model.train()
    for step, (images, target) in enumerate(loader):
        output = model(images)
        loss = criterion(output, target)
        accelerator.backward(loss)
        optimizer.first_step(zero_grad=True)

        accelerator.backward(criterion(output, target))
        optimizer.second_step(zero_grad=True)

        acc = (output.argmax(dim=1) == target).float().mean()
        accelerator.print(f"epoch {epoch} step {step}: loss={loss.item():.4f} acc={acc.item():.3f}")


def main():
    args = parse_args()
    set_seed(0)
    accelerator = Accelerator(cpu=True)
    model = timm.create_model(args.arch, pretrained=False, num_classes=args.num_classes)
    loader = build_loader(args)
    model, loader = accelerator.prepare(model, loader)
    optimizer = SAM(model.parameters(), torch.optim.SGD, rho=args.rho, lr=args.lr, momentum=0.9)
    criterion = nn.CrossEntropyLoss(label_smoothing=args.label_smoothing)
    for epoch in range(args.epochs):
        train_one_epoch(model, loader, criterion, optimizer, accelerator, epoch)


if __name__ == "__main__":
    main()
