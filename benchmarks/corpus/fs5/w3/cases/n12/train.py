import torch
import torch.nn as nn
import torch.nn.functional as F

from pcgrad import PCGrad

TASKS = {"depth": {"type": "regression", "dim": 1}, "segm": {"type": "classification", "dim": 5},
         "normal": {"type": "regression", "dim": 3}}


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=12, hidden=48, tasks=TASKS):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = nn.ModuleDict({k: nn.Linear(hidden, v["dim"]) for k, v in tasks.items()})

    def forward(self, x):
        h = self.trunk(x)
        return {k: head(h) for k, head in self.heads.items()}


def task_loss(name, pred, target):
    if TASKS[name]["type"] == "classification":
        return F.cross_entropy(pred, target)
    return F.mse_loss(pred, target)


def make_batch(n=32, in_dim=12):
    x = torch.randn(n, in_dim)
    targets = {
        "depth": x[:, :1].abs(),
        "segm": x[:, 1:6].argmax(1),
        "normal": F.normalize(x[:, 6:9], dim=1),
    }
    return x, targets


def train(steps=25):
    model = MultiTaskNet()
    base = torch.optim.Adam(model.parameters(), lr=1e-3)
    opt = PCGrad(base, model.trunk.parameters())
    for step in range(steps):
        x, targets = make_batch()
        preds = model(x)
        losses = [task_loss(k, preds[k], targets[k]) for k in TASKS]
        opt.zero_grad()
        opt.backward(losses)
        opt.step()
        if step % 8 == 0:
            print(f"step {step} " + " ".join(f"{k}={l.item():.3f}" for k, l in zip(TASKS, losses)))
    return model, opt


if __name__ == "__main__":
    torch.manual_seed(0)
    model, opt = train()
