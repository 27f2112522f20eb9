import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import Encoder

CONFIG = {
    "model": {"vocab": 100, "dim": 32, "depth": 3, "heads": 4, "grad_checkpointing": True},
    "num_classes": 3,
    "batch_size": 8,
    "seq_len": 20,
    "steps": 8,
    "lr": 3e-4,
}


class Classifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = Encoder(**cfg["model"])
        self.head = nn.Linear(cfg["model"]["dim"], cfg["num_classes"])

    def forward(self, ids, mask):
        h = self.encoder(ids, mask)
        m = mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.head(pooled)


def build_model(cfg):
    return Classifier(cfg)


def sample_batch(cfg):
    ids = torch.randint(1, cfg["model"]["vocab"], (cfg["batch_size"], cfg["seq_len"]))
    lengths = torch.randint(cfg["seq_len"] // 2, cfg["seq_len"] + 1, (cfg["batch_size"],))
    mask = torch.arange(cfg["seq_len"])[None] < lengths[:, None]
    ids[~mask] = 0
    labels = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))
    return ids, mask, labels


def train(model, cfg):
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    model.train()
    for step in range(cfg["steps"]):
        ids, mask, labels = sample_batch(cfg)
        loss = F.cross_entropy(model(ids, mask), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 4 == 0:
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_model(CONFIG)
    train(model, CONFIG)
