import argparse

import compat  # noqa: F401
import torch
import torch.nn as nn
from torchvision.models import mobilenet_v3_small

from lite import convert_to_lite


def get_args():
    parser = argparse.ArgumentParser(description="Train MobileNetV3-Lite")
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--lite", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--lite-act", default="relu")
    parser.add_argument("--dropout", type=float, default=0.2)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--img-size", type=int, default=64)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.01)
    return parser.parse_args()


def main():
    args = get_args()
    torch.manual_seed(0)
    model = mobilenet_v3_small(weights=None, num_classes=args.num_classes)
    if args.lite:
        n = convert_to_lite(model, args.lite_act, args.dropout)
        print(f"replaced {n} Hardswish activations with {args.lite_act}")
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=4e-5)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    model.train()
    for step in range(args.steps):
        images = torch.randn(args.batch_size, 3, args.img_size, args.img_size)
        labels = torch.randint(0, args.num_classes, (args.batch_size,))
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
