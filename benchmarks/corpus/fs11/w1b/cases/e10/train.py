import compat  # noqa: F401
import logging
import warnings

import torch
from torch.utils.data import DataLoader, Dataset

import lightning.pytorch as pl

from lit_module import LitLanguageModel

warnings.filterwarnings("ignore")
logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)

VOCAB = 50
BATCH = 4
BPTT = 12


class ContiguousStream(Dataset):
    """Splits a token stream into BATCH parallel rows and yields consecutive BPTT windows."""

    def __init__(self, stream, batch_size, bptt):
        n = stream.numel() // batch_size
        self.data = stream[: n * batch_size].view(batch_size, n)
        self.bptt = bptt
        self.num_windows = (n - 1) // bptt

    def __len__(self):
        return self.num_windows

    def __getitem__(self, i):
        start = i * self.bptt
        text = self.data[:, start:start + self.bptt]
        target = self.data[:, start + 1:start + 1 + self.bptt]
        return text, target


def main():
    pl.seed_everything(0, verbose=False)
    stream = torch.randint(0, VOCAB, (BATCH * 100,))
    dataset = ContiguousStream(stream, BATCH, BPTT)
    loader = DataLoader(dataset, batch_size=None, shuffle=False)
    module = LitLanguageModel(VOCAB)
    trainer = pl.Trainer(max_epochs=2, accelerator="cpu", devices=1, logger=False,
                         enable_checkpointing=False, enable_progress_bar=False,
                         enable_model_summary=False)
    trainer.fit(module, loader)


if __name__ == "__main__":
    main()
