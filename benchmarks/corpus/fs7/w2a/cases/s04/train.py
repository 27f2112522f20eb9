import compat  # noqa: F401

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import WorldModel

CONFIG = {
    "channels": 3,
    "size": 16,
    "dim": 32,
    "action_dim": 4,
    "lr": 3e-3,
    "gradient_clip_norm": 0.25,
    "gradient_accumulation": 1,
    "batch_size": 4,
    "max_steps": 6,
    "seed": 0,
}


def build_dataset(cfg, n=24, t=6):
    g = torch.Generator().manual_seed(cfg["seed"])
    frames = torch.rand(n, t, cfg["channels"], cfg["size"], cfg["size"], generator=g)
    actions = torch.randn(n, t, cfg["action_dim"], generator=g)
    return TensorDataset(frames, actions)


def main(cfg=CONFIG):
    L.seed_everything(cfg["seed"], verbose=False)
    model = WorldModel(cfg)
    loader = DataLoader(build_dataset(cfg), batch_size=cfg["batch_size"], shuffle=True)
    trainer = L.Trainer(
        max_steps=cfg["max_steps"],
        accumulate_grad_batches=cfg["gradient_accumulation"],
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, loader)
    return model


if __name__ == "__main__":
    model = main()
