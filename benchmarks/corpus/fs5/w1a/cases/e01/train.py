import argparse

import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import resnet18

from attention import GradCAM, soft_mask


def parse_args():
    p = argparse.ArgumentParser(description="attention-guided fine-tuning")
    p.add_argument("--num-classes", type=int, default=5)
    p.add_argument("--cam-layer", default="layer4.1.bn1")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--alpha", type=float, default=0.5)
    return p.parse_args()


def make_batch(batch_size, num_classes):
    images = torch.randn(batch_size, 3, 64, 64)
    labels = torch.randint(0, num_classes, (batch_size,))
    return images, labels


def train_step(model, cam, optimizer, images, labels, alpha):
    model.train()
    optimizer.zero_grad()
    logits = model(images)
    cls_loss = F.cross_entropy(logits, labels)
    score = logits.gather(1, labels[:, None]).sum()
    score.backward(retain_graph=True)
    attn = cam.attention_map(images.shape[-2:])
    optimizer.zero_grad()
    masked_logits = model(soft_mask(images, attn))
    am_loss = F.softmax(masked_logits, dim=1).gather(1, labels[:, None]).mean()
    loss = cls_loss + alpha * am_loss
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = resnet18(num_classes=args.num_classes)
    model.fc = nn.Linear(model.fc.in_features, args.num_classes)
    cam = GradCAM(model, args.cam_layer)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for step in range(args.steps):
        images, labels = make_batch(args.batch_size, args.num_classes)
        loss = train_step(model, cam, optimizer, images, labels, args.alpha)
        print(f"step {step} loss {loss:.4f}")
    cam.remove()


if __name__ == "__main__":
    main()
