import argparse

import torch
import torch.nn.functional as F

from hardnet import HarDNetSeg


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=2)
    p.add_argument("--lr", type=float, default=0.02)
    p.add_argument("--n-classes", type=int, default=4)
    p.add_argument("--v2-transform", action=argparse.BooleanOptionalAction, default=True)
    return p.parse_args()


def train(model, args):
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    model.train()
    for step in range(args.steps):
        images = torch.randn(args.batch_size, 3, 32, 32)
        labels = torch.randint(0, args.n_classes, (args.batch_size, 32, 32))
        loss = F.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


def validate(model, args):
    model.eval()
    if args.v2_transform:
        model.v2_transform()
    with torch.no_grad():
        images = torch.randn(args.batch_size, 3, 32, 32)
        pred = model(images).argmax(1)
    print("val pixels per class:", torch.bincount(pred.flatten(), minlength=args.n_classes).tolist())


def main():
    args = parse()
    torch.manual_seed(0)
    model = HarDNetSeg(n_classes=args.n_classes)
    train(model, args)
    validate(model, args)


if __name__ == "__main__":
    main()
