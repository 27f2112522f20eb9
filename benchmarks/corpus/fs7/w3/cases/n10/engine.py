import math

import torch
from torch import nn


def train_one_epoch(model, criterion, optimizer, data_loader, device, epoch, args, scaler=None):
    model.train()
    for i, (image, target) in enumerate(data_loader):
        image, target = image.to(device), target.to(device)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=scaler is not None):
            output = model(image)
            loss = criterion(output, target)

        optimizer.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            if args["clip_grad_norm"] is not None:
                scaler.unscale_(optimizer)
                nn.utils.clip_grad_norm_(model.parameters(), args["clip_grad_norm"])
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            if args["clip_grad_norm"] is not None:
                nn.utils.clip_grad_norm_(model.parameters(), args["clip_grad_norm"])
            optimizer.step()

        if not math.isfinite(loss.item()):
            raise SystemExit(f"Loss is {loss.item()}, stopping training")
        if i % args["print_freq"] == 0:
            print(f"Epoch: [{epoch}] [{i}/{len(data_loader)}] loss {loss.item():.4f}")


@torch.inference_mode()
def evaluate(model, criterion, data_loader, device):
    model.eval()
    correct, total, loss_sum = 0, 0, 0.0
    for image, target in data_loader:
        output = model(image.to(device))
        loss_sum += criterion(output, target).item() * image.size(0)
        correct += (output.argmax(1) == target).sum().item()
        total += image.size(0)
    print(f"Test: acc {correct / total:.3f} loss {loss_sum / total:.4f}")
    return correct / total
