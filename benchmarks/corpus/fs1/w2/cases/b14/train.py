import torch
import torch.nn.functional as F

from config import load_config
from model import CrowdCounter


def patches(g, n, batch=16, size=24):
    for _ in range(n):
        counts = torch.randint(0, 12, (batch,), generator=g)
        x = torch.zeros(batch, 1, size, size)
        for i, c in enumerate(counts.tolist()):
            idx = torch.randint(0, size * size, (c,), generator=g)
            x[i, 0].view(-1)[idx] = 1.0
        yield x, counts.float()


def build_model(cfg):
    return CrowdCounter(**cfg["model"])


def main():
    cfg = load_config()
    torch.manual_seed(0)
    model = build_model(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["optim"]["lr"])
    g = torch.Generator().manual_seed(12)
    for epoch in range(cfg["epochs"]):
        mae = 0.0
        for x, y in patches(g, cfg["steps_per_epoch"]):
            pred = model(x)
            loss = F.mse_loss(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            mae += (pred - y).abs().mean().item()
        print(f"[{cfg['name']}] epoch {epoch}  mse {loss.item():.3f}  mae {mae / cfg['steps_per_epoch']:.3f}")
    return model, cfg


if __name__ == "__main__":
    model, cfg = main()
