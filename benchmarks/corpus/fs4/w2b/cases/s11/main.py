import compat
import torch
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

from callbacks import FeatureExtractorFreezeUnfreeze
from module import TransferLearningModel

CONFIG = {
    "num_classes": 4,
    "lr": 1e-3,
    "max_epochs": 2,
    "batch_size": 8,
    "finetuning": {"unfreeze_at_epoch": 5, "train_bn": False},
}


def make_loader(n, seed, shuffle):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 16, 16, generator=g)
    y = torch.randint(0, CONFIG["num_classes"], (n,), generator=g)
    return DataLoader(TensorDataset(x, y), batch_size=CONFIG["batch_size"], shuffle=shuffle, generator=g)


def main():
    L.seed_everything(7, verbose=False)
    model = TransferLearningModel(num_classes=CONFIG["num_classes"], lr=CONFIG["lr"])
    finetuning = FeatureExtractorFreezeUnfreeze(**CONFIG["finetuning"])
    trainer = L.Trainer(
        max_epochs=CONFIG["max_epochs"],
        accelerator="cpu",
        callbacks=[finetuning],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, make_loader(16, 1, True), make_loader(8, 2, False))
    return model


if __name__ == "__main__":
    model = main()
