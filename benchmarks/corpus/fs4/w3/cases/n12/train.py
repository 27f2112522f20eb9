import compat  # noqa: F401
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import Classifier


def loaders(seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(48, 1, 16, 16, generator=g)
    y = torch.randint(0, 4, (48,), generator=g)
    train = TensorDataset(x[:32], y[:32])
    val = TensorDataset(x[32:], y[32:])
    return DataLoader(train, batch_size=8, shuffle=True), DataLoader(val, batch_size=16)


if __name__ == "__main__":
    L.seed_everything(0, verbose=False)
    train_dl, val_dl = loaders()
    model = Classifier()
    trainer = L.Trainer(
        max_epochs=2,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    trainer.fit(model, train_dl, val_dl)
    print({k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})
