import compat  # noqa: F401
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import TabularRegressor

CONFIG = {
    "seed": 0,
    "model": {"in_dim": 12, "hidden": [32, 32], "dropout": 0.1},
    "optim": {"name": "palm_adamw", "lr": 3e-3, "weight_decay": 1e-4, "warmup_steps": 2},
    "data": {"n": 64, "batch_size": 16},
    "trainer": {"max_steps": 4},
}


def make_loader(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    x = torch.randn(cfg["data"]["n"], cfg["model"]["in_dim"], generator=g)
    w = torch.randn(cfg["model"]["in_dim"], generator=g)
    y = x @ w + 0.1 * torch.randn(cfg["data"]["n"], generator=g)
    return DataLoader(TensorDataset(x, y), batch_size=cfg["data"]["batch_size"], shuffle=True, generator=g)


def main():
    L.seed_everything(CONFIG["seed"], verbose=False)
    model = TabularRegressor(CONFIG)
    trainer = L.Trainer(
        accelerator="cpu",
        devices=1,
        max_steps=CONFIG["trainer"]["max_steps"],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, make_loader(CONFIG))


if __name__ == "__main__":
    main()
