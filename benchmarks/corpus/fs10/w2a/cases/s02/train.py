import torch
import torch.nn as nn

from deeplab import DeepLab

CONFIG = {
    "num_classes": 5,
    "freeze_bn": True,
    "lr": 0.01,
    "epochs": 2,
    "batches_per_epoch": 2,
    "batch_size": 2,
    "crop_size": 32,
}


class SegmentationLosses:
    def __init__(self, ignore_index=255):
        self.criterion = nn.CrossEntropyLoss(ignore_index=ignore_index)

    def __call__(self, logit, target):
        return self.criterion(logit, target.long())


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = DeepLab(num_classes=cfg["num_classes"], freeze_bn=cfg["freeze_bn"])
        train_params = [{"params": self.model.get_1x_lr_params(), "lr": cfg["lr"]},
                        {"params": self.model.get_10x_lr_params(), "lr": cfg["lr"] * 10}]
        self.optimizer = torch.optim.SGD(train_params, momentum=0.9, weight_decay=5e-4)
        self.criterion = SegmentationLosses()
        g = torch.Generator().manual_seed(3)
        size = cfg["crop_size"]
        self.train_loader = [
            (torch.randn(cfg["batch_size"], 3, size, size, generator=g),
             torch.randint(0, cfg["num_classes"], (cfg["batch_size"], size, size), generator=g))
            for _ in range(cfg["batches_per_epoch"])
        ]

    def training(self, epoch):
        train_loss = 0.0
        self.model.train()
        for i, (image, target) in enumerate(self.train_loader):
            self.optimizer.zero_grad()
            output = self.model(image)
            loss = self.criterion(output, target)
            loss.backward()
            self.optimizer.step()
            train_loss += loss.item()
        print(f"[Epoch: {epoch}] train loss: {train_loss / len(self.train_loader):.3f}")

    @torch.no_grad()
    def validation(self, epoch):
        self.model.eval()
        image, target = self.train_loader[0]
        pred = self.model(image).argmax(dim=1)
        print(f"[Epoch: {epoch}] pixel acc: {(pred == target).float().mean().item():.3f}")


def main():
    torch.manual_seed(0)
    trainer = Trainer(CONFIG)
    for epoch in range(CONFIG["epochs"]):
        trainer.training(epoch)
        trainer.validation(epoch)
    return trainer


if __name__ == "__main__":
    trainer = main()
