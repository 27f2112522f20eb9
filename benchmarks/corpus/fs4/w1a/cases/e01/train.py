import compat  # noqa: F401
import torch
import torch.nn as nn
import torchvision

from cam import GradCAM

CONFIG = {
    "arch": "resnet18",
    "num_classes": 5,
    "image_size": 32,
    "batch_size": 4,
    "epochs": 2,
    "steps_per_epoch": 2,
    "lr": 0.01,
    "explain_from_epoch": 1,
    "cam_layers": {
        "resnet18": "layer4.1.bn2",
        "resnet34": "layer4.2.bn2",
    },
}


def build_model(cfg):
    factory = getattr(torchvision.models, cfg["arch"])
    return factory(num_classes=cfg["num_classes"])


def make_batch(cfg, step):
    g = torch.Generator().manual_seed(step)
    x = torch.randn(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"], generator=g)
    y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=g)
    return x, y


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = build_model(cfg)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg["lr"], momentum=0.9)
        self.criterion = nn.CrossEntropyLoss()
        self.cam = None
        self.history = []

    def on_epoch_start(self, epoch):
        if epoch >= self.cfg["explain_from_epoch"] and self.cam is None:
            target = self.cfg["cam_layers"][self.cfg["arch"]]
            self.cam = GradCAM(self.model, target)

    def train_step(self, x, y):
        self.model.train()
        logits = self.model(x)
        loss = self.criterion(logits, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        if self.cam is not None:
            maps = self.cam.heatmap()
            self.history.append(maps.mean().item())
        return loss.item()

    def fit(self):
        step = 0
        for epoch in range(self.cfg["epochs"]):
            self.on_epoch_start(epoch)
            total = 0.0
            for _ in range(self.cfg["steps_per_epoch"]):
                x, y = make_batch(self.cfg, step)
                total += self.train_step(x, y)
                step += 1
            print(f"epoch {epoch} loss {total / self.cfg['steps_per_epoch']:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(CONFIG)
    trainer.fit()
