import torch


def train_one_epoch(model, loader, criterion, optimizer, mixup_fn=None, max_norm=None):
    model.train()
    losses = []
    for samples, targets in loader:
        if mixup_fn is not None:
            samples, targets = mixup_fn(samples, targets)
        outputs = model(samples)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        if max_norm is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for samples, targets in loader:
        correct += (model(samples).argmax(-1) == targets).sum().item()
        total += targets.numel()
    return correct / max(total, 1)
