import torch

from losses import LOSSES
from model import NBeats

CONFIG = {
    "backcast": 24,
    "forecast": 6,
    "batch_size": 32,
    "steps": 40,
    "lr": 1e-3,
    "loss": "smape",
    "debug": {"detect_anomaly": True},
}


def intermittent_series(n, length, gen):
    """Retail-style intermittent demand series."""
    occurrence = torch.rand(n, length, generator=gen) < 0.35
    sizes = torch.poisson(torch.full((n, length), 3.0), generator=gen)
    return occurrence * sizes


def sample_batch(cfg, gen):
    series = intermittent_series(cfg["batch_size"], cfg["backcast"] + cfg["forecast"], gen)
    return series[:, :cfg["backcast"]], series[:, cfg["backcast"]:]


def train(cfg):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = NBeats(cfg["backcast"], cfg["forecast"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loss_fn = LOSSES[cfg["loss"]]
    torch.autograd.set_detect_anomaly(cfg["debug"]["detect_anomaly"])
    for step in range(cfg["steps"]):
        insample, target = sample_batch(cfg, gen)
        forecast = model(insample)
        loss = loss_fn(forecast, target, insample)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step} {cfg['loss']} {loss.item():.4f}")
    return model


if __name__ == "__main__":
    train(CONFIG)
