import argparse

import torch
import torch.nn as nn
import torch.optim as optim

from wide_resnet import WideResNet


def get_args():
    parser = argparse.ArgumentParser("parameters")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--steps-per-epoch", type=int, default=2)
    parser.add_argument("--learning-rate", type=float, default=0.1)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--widen-factor", type=int, default=2)
    parser.add_argument("--dropout", type=float, default=0.3)
    parser.add_argument("--image-size", type=int, default=16)
    return parser.parse_args()


def random_loader(args, num_batches):
    for _ in range(num_batches):
        data = torch.randn(args.batch_size, 3, args.image_size, args.image_size)
        target = torch.randint(0, 10, (args.batch_size,))
        yield data, target


def train(model, loader, optimizer, criterion, epoch):
    model.train()
    for i, (data, target) in enumerate(loader):
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()
        print(f"[Epoch {epoch}] step {i} loss {loss.item():.4f}")


def main(args):
    model = WideResNet(args.depth, args.widen_factor, args.dropout, num_classes=10, shape=args.image_size)
    optimizer = optim.SGD(model.parameters(), lr=args.learning_rate, momentum=0.9, weight_decay=5e-4)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(1, args.epochs + 1):
        train(model, random_loader(args, args.steps_per_epoch), optimizer, criterion, epoch)


if __name__ == "__main__":
    torch.manual_seed(0)
    main(get_args())
