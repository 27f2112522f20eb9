import argparse

import compat  # noqa: F401
import timm
import torch
import torch.nn.functional as F

from attacks import ATTACKS


def get_args():
    p = argparse.ArgumentParser(description="adversarial fine-tuning")
    p.add_argument("--arch", default="resnet10t")
    p.add_argument("--attack", default="deepfool", choices=sorted(ATTACKS))
    p.add_argument("--num-classes", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--iters", type=int, default=2)
    p.add_argument("--adv-weight", type=float, default=0.5)
    p.add_argument("--lr", type=float, default=0.01)
    return p.parse_args()


def main():
    args = get_args()
    torch.manual_seed(0)
    model = timm.create_model(args.arch, pretrained=False, num_classes=args.num_classes)
    attack = ATTACKS[args.attack](model)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        for it in range(args.iters):
            images = torch.rand(args.batch_size, 3, 32, 32)
            labels = torch.randint(0, args.num_classes, (args.batch_size,))
            adv_images = attack(images, labels)
            model.train()
            clean_loss = F.cross_entropy(model(images), labels)
            adv_loss = F.cross_entropy(model(adv_images), labels)
            loss = (1 - args.adv_weight) * clean_loss + args.adv_weight * adv_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
