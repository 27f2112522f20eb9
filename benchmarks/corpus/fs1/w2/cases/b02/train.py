import torch
import torch.nn.functional as F

from freeze import apply_schedule
from model import SpeakerNet

CONFIG = {
    "epochs": 4,
    "steps_per_epoch": 6,
    "lr": 0.05,
    "momentum": 0.9,
    "weight_decay": 5e-4,
    "freeze_schedule": [
        {"epoch": 2, "layers": ["frontend", "fc1"], "freeze": True},
    ],
}


def batches(n, batch_size=16, n_mels=40, frames=50, n_speakers=10):
    g = torch.Generator().manual_seed(7)
    for _ in range(n):
        y = torch.randint(0, n_speakers, (batch_size,), generator=g)
        x = torch.randn(batch_size, n_mels, frames, generator=g) + y.view(-1, 1, 1) * 0.1
        yield x, y


def train_epoch(model, optimizer, epoch, cfg):
    model.train()
    total = 0.0
    for x, y in batches(cfg["steps_per_epoch"]):
        optimizer.zero_grad(set_to_none=False)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}  loss {total / cfg['steps_per_epoch']:.4f}")


def main(cfg=CONFIG):
    torch.manual_seed(0)
    model = SpeakerNet()
    optimizer = torch.optim.SGD(
        model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"], weight_decay=cfg["weight_decay"]
    )
    for epoch in range(cfg["epochs"]):
        apply_schedule(model, cfg["freeze_schedule"], epoch)
        train_epoch(model, optimizer, epoch, cfg)
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
