import compat  # noqa: F401
import warnings

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from downstream import DownstreamClassifier, EncoderWarmup
from models import AudioNTT2020

warnings.filterwarnings("ignore")

cfg = {
    "n_mels": 16,
    "frames": 24,
    "feature_d": 32,
    "n_classes": 4,
    "batch_size": 8,
    "lr": 1e-3,
    "epochs": 3,
    "warmup_epochs": 1,
    "seed": 42,
}


def make_loader(cfg, n=32):
    x = torch.randn(n, 1, cfg["n_mels"], cfg["frames"])
    y = torch.randint(0, cfg["n_classes"], (n,))
    return DataLoader(TensorDataset(x, y), batch_size=cfg["batch_size"], shuffle=True)


L.seed_everything(cfg["seed"], verbose=False)
encoder = AudioNTT2020(n_mels=cfg["n_mels"], d=cfg["feature_d"])
model = DownstreamClassifier(encoder, cfg["n_classes"], lr=cfg["lr"])
trainer = L.Trainer(
    max_epochs=cfg["epochs"],
    accelerator="cpu",
    devices=1,
    logger=False,
    enable_checkpointing=False,
    enable_progress_bar=False,
    enable_model_summary=False,
    callbacks=[EncoderWarmup(cfg["warmup_epochs"])],
)
trainer.fit(model, make_loader(cfg))
print("final train_loss {:.4f}".format(trainer.callback_metrics["train_loss"].item()))
