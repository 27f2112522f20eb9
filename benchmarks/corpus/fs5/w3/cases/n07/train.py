import torch

from engine import Trainer
from model import ResidualMLP

CFG = {
    "precision": "fp16",
    "in_dim": 24,
    "hidden": 64,
    "out_dim": 4,
    "depth": 3,
    "lr": 2e-3,
    "wd": 0.05,
    "clip": 1.0,
    "init_scale": 2.0 ** 16,
    "steps": 30,
    "batch_size": 32,
}


def make_data(n, cfg, w):
    x = torch.randn(n, cfg["in_dim"])
    y = torch.tanh(x @ w) + 0.05 * torch.randn(n, cfg["out_dim"])
    return x, y


def main(cfg):
    w = torch.randn(cfg["in_dim"], cfg["out_dim"]) / cfg["in_dim"] ** 0.5
    model = ResidualMLP(cfg["in_dim"], cfg["hidden"], cfg["out_dim"], cfg["depth"])
    trainer = Trainer(model, cfg)
    xv, yv = make_data(128, cfg, w)
    for step in range(cfg["steps"]):
        x, y = make_data(cfg["batch_size"], cfg, w)
        loss, gnorm = trainer.train_step(x, y)
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f} gnorm {gnorm.item():.3f} "
                  f"scale {trainer.scaler.get_scale():.0f} val {trainer.validate(xv, yv):.4f}")
    return trainer


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = main(CFG)
