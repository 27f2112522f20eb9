import compat  # noqa: F401
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import RotaryLM

SEQ_LEN = 33


def loaders(vocab_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    train = TensorDataset(torch.randint(0, vocab_size, (32, SEQ_LEN), generator=g))
    val = TensorDataset(torch.randint(0, vocab_size, (8, SEQ_LEN), generator=g))
    return DataLoader(train, batch_size=4, shuffle=True, generator=g), DataLoader(val, batch_size=4)


def main():
    L.seed_everything(0, verbose=False)
    model = RotaryLM()
    train_loader, val_loader = loaders(model.hparams.vocab_size)
    trainer = L.Trainer(
        accelerator="cpu",
        devices=1,
        max_steps=4,
        val_check_interval=2,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    baseline = trainer.validate(model, val_loader, verbose=False)
    print(f"baseline val loss: {baseline[0]['val/loss']:.4f}")
    trainer.fit(model, train_loader, val_loader)


if __name__ == "__main__":
    main()
