import compat  # noqa: F401
import lightning.pytorch as pl
import torch
import torch.nn as nn
import torchvision
from torch.utils.data import DataLoader, TensorDataset

from classifier import LinearClassifier


def build_backbone():
    resnet = torchvision.models.resnet18(weights=None)
    return nn.Sequential(*list(resnet.children())[:-1])


def main():
    pl.seed_everything(0, verbose=False)
    backbone = build_backbone()
    images = torch.randn(32, 3, 32, 32) * 0.5 + 0.2
    targets = torch.randint(0, 10, (32,))
    loader = DataLoader(TensorDataset(images, targets), batch_size=8, shuffle=True)

    classifier = LinearClassifier(backbone, feature_dim=512, num_classes=10)
    trainer = pl.Trainer(
        max_epochs=2,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(classifier, loader)
    return classifier


if __name__ == "__main__":
    classifier = main()
