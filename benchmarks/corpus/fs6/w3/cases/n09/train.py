import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from pcgrad import PCGrad

TASKS = {"segmentation": 5, "depth": 1, "normal": 3}


class MultiTaskNet(nn.Module):
    def __init__(self, tasks, in_dim=24, hidden=64):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = nn.ModuleDict({name: nn.Linear(hidden, out) for name, out in tasks.items()})

    def forward(self, x):
        rep = self.shared(x)
        return {name: head(rep) for name, head in self.heads.items()}


def task_loss(name, pred, target):
    if name == "segmentation":
        return F.cross_entropy(pred, target)
    if name == "normal":
        return 1 - F.cosine_similarity(pred, target, dim=1).mean()
    return F.l1_loss(pred, target)


def make_batch(n=32):
    x = torch.randn(n, 24)
    return x, {
        "segmentation": x[:, :5].argmax(1),
        "depth": x[:, 5:6].abs() * 2,
        "normal": F.normalize(x[:, 6:9], dim=1),
    }


def main():
    random.seed(0)
    torch.manual_seed(0)
    net = MultiTaskNet(TASKS)
    optimizer = PCGrad(torch.optim.Adam(net.parameters(), lr=1e-3))
    for it in range(20):
        x, targets = make_batch()
        preds = net(x)
        losses = [task_loss(name, preds[name], targets[name]) for name in TASKS]
        optimizer.zero_grad()
        optimizer.pc_backward(losses)
        optimizer.step()
        if it % 5 == 0:
            print(it, " ".join(f"{n}={l.item():.4f}" for n, l in zip(TASKS, losses)))


if __name__ == "__main__":
    main()
