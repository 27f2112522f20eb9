import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from pcgrad import PCGrad

TASKS = {
    "segment": {"out": 4, "loss": "ce"},
    "depth": {"out": 1, "loss": "l1"},
    "normal": {"out": 3, "loss": "cos"},
}
ACTIVE_TASKS = ["segment", "depth", "normal"]


def task_loss(kind, pred, target):
    if kind == "ce":
        return F.cross_entropy(pred, target)
    if kind == "l1":
        return F.l1_loss(pred.squeeze(1), target)
    return (1 - F.cosine_similarity(pred, target, dim=1)).mean()


class MultiTaskNet(nn.Module):
    def __init__(self, tasks):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(inplace=True),
        )
        self.heads = nn.ModuleDict({t: nn.Conv2d(16, TASKS[t]["out"], 1) for t in tasks})

    def forward(self, x):
        h = self.encoder(x)
        return {t: head(h) for t, head in self.heads.items()}


def make_batch():
    x = torch.randn(4, 3, 16, 16)
    return x, {
        "segment": torch.randint(0, 4, (4, 16, 16)),
        "depth": torch.rand(4, 16, 16),
        "normal": F.normalize(torch.randn(4, 3, 16, 16), dim=1),
    }


def main():
    random.seed(0)
    torch.manual_seed(0)
    model = MultiTaskNet(ACTIVE_TASKS)
    optimizer = PCGrad(torch.optim.Adam(model.parameters(), lr=1e-3))
    for step in range(6):
        x, targets = make_batch()
        outputs = model(x)
        losses = [task_loss(TASKS[t]["loss"], outputs[t], targets[t]) for t in ACTIVE_TASKS]
        optimizer.zero_grad()
        optimizer.pc_backward(losses)
        optimizer.step()
        if step % 2 == 0:
            print(f"step {step} " + " ".join(f"{t}={l.item():.4f}" for t, l in zip(ACTIVE_TASKS, losses)))
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
