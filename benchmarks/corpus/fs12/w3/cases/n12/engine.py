import torch
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer, scheduler, epoch, clip=1.0, print_freq=10):
    model.train()
    for i, (images, targets) in enumerate(loader):
        logits = model(images)
        loss = F.cross_entropy(logits, targets, label_smoothing=0.1)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        if i % print_freq == 0:
            lr = optimizer.param_groups[0]["lr"]
            print(f"Epoch: [{epoch}] [{i}/{len(loader)}] lr {lr:.6f} loss {loss.item():.4f}")


@torch.no_grad()
def evaluate(model, loader):
    was_training = model.training
    model.eval()
    correct = total = 0
    loss_sum = 0.0
    for images, targets in loader:
        logits = model(images)
        loss_sum += F.cross_entropy(logits, targets, reduction="sum").item()
        correct += (logits.argmax(1) == targets).sum().item()
        total += targets.numel()
    model.train(was_training)
    return loss_sum / total, correct / total
