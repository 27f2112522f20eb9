import torch
import torch.nn as nn

from model import generate_model


OPT = {
    "model": "cnnlstm",
    "n_classes": 3,
    "sample_duration": 4,
    "sample_size": 32,
    "batch_size": 2,
    "lr_rate": 1e-3,
    "weight_decay": 0.0,
    "n_epochs": 2,
    "iters_per_epoch": 2,
    "log_interval": 1,
}


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def video_batches(opt, generator):
    for _ in range(opt["iters_per_epoch"]):
        clips = torch.randn(opt["batch_size"], opt["sample_duration"], 3,
                            opt["sample_size"], opt["sample_size"], generator=generator)
        targets = torch.randint(0, opt["n_classes"], (opt["batch_size"],), generator=generator)
        yield clips, targets


def train_epoch(model, data_loader, criterion, optimizer, epoch, log_interval):
    model.train()
    losses = AverageMeter()
    accuracies = AverageMeter()
    for batch_idx, (data, targets) in enumerate(data_loader):
        outputs = model(data)
        loss = criterion(outputs, targets)
        acc = (outputs.argmax(1) == targets).float().mean().item()
        losses.update(loss.item(), data.size(0))
        accuracies.update(acc, data.size(0))

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if (batch_idx + 1) % log_interval == 0:
            print(f"Train Epoch: {epoch} [{batch_idx + 1}]\tLoss: {losses.avg:.4f}\tAcc: {accuracies.avg * 100:.1f}%")
    return losses.avg, accuracies.avg


def main(opt):
    torch.manual_seed(0)
    model = generate_model(opt)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=opt["lr_rate"], weight_decay=opt["weight_decay"])
    gen = torch.Generator().manual_seed(7)
    for epoch in range(1, opt["n_epochs"] + 1):
        train_epoch(model, video_batches(opt, gen), criterion, optimizer, epoch, opt["log_interval"])
    return model


if __name__ == "__main__":
    model = main(OPT)
