import compat  # noqa: F401
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from module import MultiTaskModule


def make_data(n=256, in_dim=16):
    x = torch.randn(n, in_dim)
    y_cls = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    y_reg = x[:, 2:5].sum(1)
    return TensorDataset(x, y_cls, y_reg)


def main():
    L.seed_everything(0, verbose=False)
    loader = DataLoader(make_data(), batch_size=32, shuffle=True)
    model = MultiTaskModule()
    trainer = L.Trainer(accelerator="cpu", devices=1, max_epochs=2, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, loader)
    print({k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()})
    return model, trainer


if __name__ == "__main__":
    model, trainer = main()
