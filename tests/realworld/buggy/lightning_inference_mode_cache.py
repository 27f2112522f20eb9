"""A rotary-style table is built lazily on the first forward and kept on the module. The first
forward runs in trainer.validate(), which Lightning runs under torch.inference_mode() by default:
the kept table is an inference tensor, and the training step that multiplies by it raises."""
import _cpu_torchvision  # noqa: F401  (tests/realworld/scripts, on PYTHONPATH: torchvision's CUDA wheel on a CPU torch)

import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Model(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.table = None

    def forward(self, x):
        if self.table is None:
            self.table = torch.linspace(0.5, 1.5, 8)
        return self.proj(x) * self.table

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.mse_loss(self(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val", nn.functional.mse_loss(self(x), y))

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


torch.manual_seed(0)
data = DataLoader(TensorDataset(torch.randn(16, 8), torch.randn(16, 8)), batch_size=8)
model = Model()
trainer = L.Trainer(max_epochs=1, accelerator="cpu", logger=False, enable_checkpointing=False,
                    enable_progress_bar=False, enable_model_summary=False)
trainer.validate(model, data, verbose=False)
trainer.fit(model, data)
