import argparse

import compat  # noqa: F401
import torch
import torch.nn as nn
import torchvision

from precond import KFACPreconditioner


def get_args():
    p = argparse.ArgumentParser(description="K-FAC preconditioned SGD on a torchvision classifier")
    p.add_argument("--arch", default="squeezenet1_1")
    p.add_argument("--num-classes", type=int, default=10)
    p.add_argument("--image-size", type=int, default=64)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--damping", type=float, default=0.1)
    p.add_argument("--kfac-update-freq", type=int, default=1)
    return p.parse_args()


def main():
    args = get_args()
    torch.manual_seed(0)
    model = torchvision.models.get_model(args.arch, weights=None, num_classes=args.num_classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    preconditioner = KFACPreconditioner(model, damping=args.damping, update_freq=args.kfac_update_freq)
    criterion = nn.CrossEntropyLoss()

    model.train()
    for step in range(args.steps):
        images = torch.randn(args.batch_size, 3, args.image_size, args.image_size)
        labels = torch.randint(0, args.num_classes, (args.batch_size,))
        output = model(images)
        loss = criterion(output, labels)
        optimizer.zero_grad()
        loss.backward()
        preconditioner.step()
        optimizer.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
