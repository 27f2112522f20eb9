import compat  # noqa: F401
import lightning.pytorch as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import InvarianceSSL
from probe import OnlineLinearProbe

CONFIG = {
    "in_dim": 24,
    "feat_dim": 32,
    "num_classes": 4,
    "batch_size": 16,
    "max_epochs": 1,
    "probe_every": 1,
}


def make_split(n, cfg, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, cfg["num_classes"], (n,), generator=g)
    centers = torch.randn(cfg["num_classes"], cfg["in_dim"], generator=torch.Generator().manual_seed(7))
    x = centers[y] + 0.5 * torch.randn(n, cfg["in_dim"], generator=g)
    return TensorDataset(x, y)


def main(cfg):
    pl.seed_everything(0, verbose=False)
    train_dl = DataLoader(make_split(64, cfg, 1), batch_size=cfg["batch_size"], shuffle=True)
    val_dl = DataLoader(make_split(32, cfg, 2), batch_size=cfg["batch_size"])
    model = InvarianceSSL(in_dim=cfg["in_dim"], feat_dim=cfg["feat_dim"])
    probe = OnlineLinearProbe(cfg["feat_dim"], cfg["num_classes"], every_n_epochs=cfg["probe_every"])
    trainer = pl.Trainer(
        max_epochs=cfg["max_epochs"],
        accelerator="cpu",
        callbacks=[probe],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, train_dl, val_dl)
    metrics = trainer.validate(model, val_dl, verbose=False)[0]
    print("final probe acc", metrics.get("probe_acc"))


if __name__ == "__main__":
    main(CONFIG)
