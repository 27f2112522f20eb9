"""Lightning's Trainer(strategy="ddp", devices=2) on CPU: rank 0 is this process, and Lightning
starts rank 1 by running this script again (subprocess.Popen). The auxiliary head is used on
even steps only, so DDP's reducer stops the next step with "Expected to have finished reduction
in the prior iteration ..." on both ranks."""

import _cpu_torchvision  # noqa: F401  (tests/realworld/scripts, on PYTHONPATH: torchvision's CUDA wheel on a CPU torch)

import lightning as L
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class WithAuxHead(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 16)
        self.head = nn.Linear(16, 1)
        self.aux_head = nn.Linear(16, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        h = torch.relu(self.body(x))
        out = self.head(h)
        if batch_idx % 2 == 0:
            out = out + 0.1 * self.aux_head(h)
        return F.mse_loss(out, y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def main():
    L.seed_everything(0, verbose=False)
    data = TensorDataset(torch.randn(32, 8), torch.randn(32, 1))
    trainer = L.Trainer(max_steps=3, accelerator="cpu", devices=2, strategy="ddp", logger=False,
                        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(WithAuxHead(), DataLoader(data, batch_size=4))
    print("finished", trainer.global_step)


if __name__ == "__main__":
    main()
