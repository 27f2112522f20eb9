import torch
import torch.nn as nn
import torch.nn.functional as F

from data import ToySegments

config = {
    "batch_size": 16,
    "accum_steps": 4,
    "epochs": 3,
    "lr": 3e-3,
    "class_counts": [105, 30, 15],
    "max_grad_norm": 1.0,
}


class MLP(nn.Module):
    def __init__(self, dim, hidden, classes):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, hidden), nn.GELU(), nn.LayerNorm(hidden), nn.Linear(hidden, classes)
        )

    def forward(self, x):
        return self.net(x)


def class_weights(counts):
    counts = torch.tensor(counts, dtype=torch.float32)
    w = counts.sum() / (len(counts) * counts)
    return w / w.mean()


def group_size(idx, num_batches, accum):
    start = (idx // accum) * accum
    return min(accum, num_batches - start)


def train(cfg):
    torch.manual_seed(0)
    data = ToySegments()
    model = MLP(20, 64, 3)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    weights = class_weights(cfg["class_counts"])
    accum = cfg["accum_steps"]
    num_batches = data.num_batches(cfg["batch_size"])
    updates = 0

    for epoch in range(cfg["epochs"]):
        model.train()
        optimizer.zero_grad()
        running = 0.0
        for idx, (x, y) in enumerate(data.loader(cfg["batch_size"])):
            logits = model(x)
            loss = F.cross_entropy(logits, y, weight=weights)
            (loss / group_size(idx, num_batches, accum)).backward()
            running += loss.item()

            if (idx + 1) % accum == 0 or (idx + 1) == num_batches:
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
                optimizer.step()
                optimizer.zero_grad()
                updates += 1
        print(f"epoch {epoch} loss {running / num_batches:.4f} updates {updates}")
    return model, updates


if __name__ == "__main__":
    model, updates = train(config)
