import argparse

import torch
import torch.nn as nn
from torch import optim

from unet import UNet, dice_loss


def get_args():
    parser = argparse.ArgumentParser(description="Train the UNet on images and target masks")
    parser.add_argument("--epochs", "-e", type=int, default=2)
    parser.add_argument("--batch-size", "-b", dest="batch_size", type=int, default=4)
    parser.add_argument("--learning-rate", "-l", dest="lr", type=float, default=5e-2)
    parser.add_argument("--amp", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--classes", "-c", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def make_loader(n_batches, batch_size, size=32, seed=1):
    gen = torch.Generator().manual_seed(seed)
    for _ in range(n_batches):
        images = torch.randn(batch_size, 1, size, size, generator=gen)
        masks = (images[:, 0] > 0.3).long()
        yield images, masks


def train_model(model, device, epochs, batch_size, learning_rate, amp, gradient_clipping=1.0):
    optimizer = optim.SGD(model.parameters(), lr=learning_rate, momentum=0.9, weight_decay=1e-8)
    grad_scaler = torch.amp.GradScaler(device.type, enabled=amp)
    criterion = nn.CrossEntropyLoss()
    global_step = 0

    for epoch in range(1, epochs + 1):
        model.train()
        epoch_loss = 0.0
        for images, true_masks in make_loader(3, batch_size, seed=epoch):
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
                masks_pred = model(images)
                loss = criterion(masks_pred.float(), true_masks)
                loss = loss + dice_loss(masks_pred, true_masks, model.n_classes)

            optimizer.zero_grad(set_to_none=True)
            grad_scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping)
            grad_scaler.step(optimizer)
            grad_scaler.update()

            global_step += 1
            epoch_loss += loss.item()
        print(f"epoch {epoch}: loss {epoch_loss / 3:.4f}")
    return model


if __name__ == "__main__":
    args = get_args()
    torch.manual_seed(args.seed)
    device = torch.device("cpu")
    model = UNet(n_channels=1, n_classes=args.classes)
    model = train_model(model, device, args.epochs, args.batch_size, args.lr, args.amp)
