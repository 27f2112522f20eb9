import argparse

import compat  # noqa: F401
import torch

from model import ASCL


def parse_args():
    parser = argparse.ArgumentParser(description="Adaptive soft contrastive learning")
    parser.add_argument("--model", default="byol", choices=["moco", "byol"])
    parser.add_argument("--type", default="ascl", choices=["ascl", "ahcl", "hard", "moco"])
    parser.add_argument("--arch", default="resnet18")
    parser.add_argument("--mem-size", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=0.06)
    parser.add_argument("--epochs", type=int, default=1)
    return parser.parse_args()


def augment(x):
    flip = torch.rand(x.shape[0]) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(-1), x)
    return (x + 0.1 * torch.randn_like(x)).clamp(0, 1)


def train(net, loader, optimizer, epoch):
    net.train()
    total_loss, total_num = 0.0, 0
    for images, targets in loader:
        im_1, im_2 = augment(images), augment(images)
        loss = net(im_1, im_2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total_num += images.shape[0]
        total_loss += loss.item() * images.shape[0]
    print(f"epoch {epoch}: loss {total_loss / total_num:.4f}")


def main():
    args = parse_args()
    torch.manual_seed(0)
    net = ASCL(model=args.model, type=args.type, arch=args.arch, mem_size=args.mem_size)
    params = [p for p in net.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=args.lr, weight_decay=5e-4, momentum=0.9)
    loader = [(torch.rand(args.batch_size, 3, 32, 32), torch.randint(0, 10, (args.batch_size,)))
              for _ in range(2)]
    for epoch in range(args.epochs):
        train(net, loader, optimizer, epoch)


if __name__ == "__main__":
    main()
