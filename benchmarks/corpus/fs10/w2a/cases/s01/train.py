import argparse

import torch
import torch.nn.functional as F

from model import CLIP


def parse_args(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--lock-image", action="store_true", default=True)
    parser.add_argument("--lock-image-unlocked-groups", type=int, default=2)
    parser.add_argument("--grad-checkpointing", action="store_true", default=True)
    return parser.parse_args(argv)


class ClipLoss:
    def __call__(self, image_features, text_features, logit_scale):
        logits_per_image = logit_scale * image_features @ text_features.t()
        labels = torch.arange(logits_per_image.shape[0])
        return (F.cross_entropy(logits_per_image, labels)
                + F.cross_entropy(logits_per_image.t(), labels)) / 2


def make_batches(n_batches, batch_size):
    g = torch.Generator().manual_seed(1)
    for _ in range(n_batches):
        images = torch.randn(batch_size, 3, 32, 32, generator=g)
        tokens = torch.randint(0, 100, (batch_size, 12), generator=g)
        yield images, tokens


def train_one_epoch(model, data, loss_fn, optimizer, epoch):
    model.train()
    for i, (images, tokens) in enumerate(data):
        optimizer.zero_grad()
        image_features, text_features, logit_scale = model(images, tokens)
        loss = loss_fn(image_features, text_features, logit_scale)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")


def main(argv=None):
    args = parse_args(argv)
    torch.manual_seed(0)
    model = CLIP()
    if args.lock_image:
        model.visual.lock(unlocked_groups=args.lock_image_unlocked_groups)
    if args.grad_checkpointing:
        model.visual.set_grad_checkpointing()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.1)
    loss_fn = ClipLoss()
    for epoch in range(args.epochs):
        train_one_epoch(model, make_batches(4, args.batch_size), loss_fn, optimizer, epoch)
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
