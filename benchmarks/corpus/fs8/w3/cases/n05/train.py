import argparse

import torch
import torch.nn.functional as F

from model import Segmenter


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--no-checkpoint", action="store_true")
    p.add_argument("--lr", type=float, default=0.01)
    return p.parse_args()


def dice_loss(logits, target, valid, num_classes, eps=1.0):
    w = valid.unsqueeze(1).float()
    probs = logits.softmax(1) * w
    onehot = F.one_hot(target, num_classes).permute(0, 3, 1, 2).float() * w
    inter = (probs * onehot).sum((0, 2, 3))
    union = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = Segmenter(num_classes=3, use_checkpoint=not args.no_checkpoint)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4)

    for step in range(args.steps):
        model.train()
        images = torch.randn(2, 3, 32, 32)
        masks = torch.randint(0, 3, (2, 32, 32))
        masks[:, :4, :] = 255
        logits = model(images)
        valid = masks != 255
        ce = F.cross_entropy(logits, masks, ignore_index=255)
        dice_target = masks.clone()
        dice_target[~valid] = 0
        loss = ce + dice_loss(logits, dice_target, valid, 3)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss={loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(torch.randn(1, 3, 32, 32)).argmax(1)
    print("pred classes", pred.unique().tolist())
    return model


if __name__ == "__main__":
    model = main()
