import random

import torch
import torch.nn.functional as F
from torch import nn

from pcgrad import PCGrad


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=12, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = nn.ModuleDict({
            "segment": nn.Linear(hidden, 4),
            "depth": nn.Linear(hidden, 1),
            "normal": nn.Linear(hidden, 3),
        })

    def forward(self, x):
        h = self.trunk(x)
        return {name: head(h) for name, head in self.heads.items()}


TASK_LOSSES = {
    "segment": lambda out, y: F.cross_entropy(out, y["segment"]),
    "depth": lambda out, y: F.l1_loss(out.squeeze(-1), y["depth"]),
    "normal": lambda out, y: 1 - F.cosine_similarity(out, y["normal"], dim=-1).mean(),
}


def make_batch(n=32):
    x = torch.randn(n, 12)
    return x, {
        "segment": torch.randint(0, 4, (n,)),
        "depth": x[:, :3].abs().sum(-1),
        "normal": F.normalize(x[:, 3:6], dim=-1),
    }


def main():
    random.seed(0)
    torch.manual_seed(0)
    model = MultiTaskNet()
    optimizer = PCGrad(torch.optim.Adam(model.parameters(), lr=1e-3), model.trunk.parameters())
    for step in range(30):
        x, y = make_batch()
        outputs = model(x)
        losses = [fn(outputs[name], y) for name, fn in TASK_LOSSES.items()]
        optimizer.zero_grad()
        optimizer.backward(losses)
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step:2d}  " + "  ".join(f"{n} {l.item():.3f}" for n, l in zip(TASK_LOSSES, losses)))
    return model


if __name__ == "__main__":
    model = main()
