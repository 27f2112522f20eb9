import compat  # noqa: F401
import argparse

import torch
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

from model import ImagenetTransferLearning


def parse_args():
    parser = argparse.ArgumentParser(description="linear probe on a CNN backbone")
    parser.add_argument("--backbone", default="resnet18")
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--freeze-backbone", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=8)
    return parser.parse_args([])


def make_loader(n, num_classes, batch_size, shuffle):
    x = torch.randn(n, 3, 32, 32)
    y = torch.randint(0, num_classes, (n,))
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=shuffle)


def main():
    args = parse_args()
    L.seed_everything(0, verbose=False)
    train_loader = make_loader(16, args.num_classes, args.batch_size, True)
    val_loader = make_loader(8, args.num_classes, args.batch_size, False)

    model = ImagenetTransferLearning(
        num_target_classes=args.num_classes,
        backbone=args.backbone,
        freeze_backbone=args.freeze_backbone,
        lr=args.lr,
    )
    trainer = L.Trainer(
        max_epochs=args.epochs,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, train_loader, val_loader)
    return model


if __name__ == "__main__":
    main()
