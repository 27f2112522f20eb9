import compat  # noqa: F401
import warnings

import torch
from lightning.pytorch import Trainer, seed_everything
from torch.utils.data import DataLoader, Dataset

from module import LinearProbe

warnings.filterwarnings("ignore")


class IndexedDataset(Dataset):
    def __init__(self, n=320, in_dim=32, num_classes=10, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, in_dim, generator=g)
        self.y = torch.randint(0, num_classes, (n,), generator=g)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return i, self.x[i], self.y[i]


seed_everything(0, verbose=False)
model = LinearProbe()
loader = DataLoader(IndexedDataset(), batch_size=32, shuffle=True, num_workers=0)
trainer = Trainer(max_epochs=2, accelerator="cpu", logger=False, enable_checkpointing=False,
                  enable_progress_bar=False, enable_model_summary=False)
trainer.fit(model, loader)
print("train_loss", float(trainer.callback_metrics["train_loss"]))
