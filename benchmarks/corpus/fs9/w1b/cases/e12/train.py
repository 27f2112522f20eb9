import compat  # noqa: F401
import warnings

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import SimilarityModel
from xbm import XbmConfig

warnings.filterwarnings("ignore")


def build_loader(n=256, in_dim=32, n_classes=8, batch_size=16):
    g = torch.Generator().manual_seed(0)
    centers = torch.randn(n_classes, in_dim, generator=g)
    labels = torch.randint(0, n_classes, (n,), generator=g)
    feats = centers[labels] + 0.3 * torch.randn(n, in_dim, generator=g)
    return DataLoader(TensorDataset(feats, labels), batch_size=batch_size, shuffle=True,
                      generator=torch.Generator().manual_seed(1))


def main():
    L.seed_everything(42, verbose=False)
    model = SimilarityModel(in_dim=32, emb_dim=16, xbm_config=XbmConfig(buffer_size=64, start_iteration=2))
    trainer = L.Trainer(accelerator="cpu", max_epochs=1, max_steps=4, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, build_loader())


if __name__ == "__main__":
    main()
