import argparse
import copy

import torch
import torch.nn as nn

from model import GoodsClassifier


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--backbone", default="mobilenetv4_conv_small")
    p.add_argument("--num-classes", type=int, default=20)
    p.add_argument("--drop-rate", type=float, default=0.2)
    p.add_argument("--image-size", type=int, default=96)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--steps-per-epoch", type=int, default=2)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--accumulation-steps", type=int, default=1)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--ema-decay", type=float, default=0.999)
    return p.parse_args()


class ModelEma:
    def __init__(self, model, decay):
        self.module = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.dtype.is_floating_point:
                ema_v.mul_(self.decay).add_(model_v.detach(), alpha=1.0 - self.decay)
            else:
                ema_v.copy_(model_v)


def train_iterator(args):
    for _ in range(args.steps_per_epoch):
        images = torch.randn(args.batch_size, 3, args.image_size, args.image_size)
        labels = torch.randint(0, args.num_classes, (args.batch_size,))
        yield images, labels


def train(train_iter, model, model_ema, criterion, optimizer, epoch, accumulation_steps):
    model.train()
    optimizer.zero_grad(set_to_none=True)
    running = 0.0
    for i, (images, labels) in enumerate(train_iter):
        outputs = model(images)
        loss = criterion(outputs, labels) / accumulation_steps
        loss.backward()
        if (i + 1) % accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            model_ema.update(model)
        running += loss.item()
    print(f"epoch {epoch}: train loss {running:.4f}")


def main(args):
    torch.manual_seed(0)
    model = GoodsClassifier(args.backbone, args.num_classes, drop_rate=args.drop_rate)
    model_ema = ModelEma(model, args.ema_decay)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    for epoch in range(args.epochs):
        train(train_iterator(args), model, model_ema, criterion, optimizer, epoch, args.accumulation_steps)


if __name__ == "__main__":
    main(parse_args())
