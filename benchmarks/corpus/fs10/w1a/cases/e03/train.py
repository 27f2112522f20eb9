import compat  # noqa: F401
import torch
import torch.nn as nn
from torchvision.models import resnet18

from monitor import GradientMonitor

CFG = {
    "num_classes": 10,
    "lr": 0.05,
    "epochs": 2,
    "steps_per_epoch": 2,
    "batch_size": 4,
    "image_size": 32,
    "monitor": {"start_epoch": 1, "watch_types": ["BatchNorm2d"]},
}


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = resnet18(num_classes=cfg["num_classes"])
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg["lr"], momentum=0.9)
        self.criterion = nn.CrossEntropyLoss()
        self.monitor = GradientMonitor(self.model, cfg["monitor"]["watch_types"])

    def batches(self):
        for _ in range(self.cfg["steps_per_epoch"]):
            x = torch.randn(self.cfg["batch_size"], 3, self.cfg["image_size"], self.cfg["image_size"])
            y = torch.randint(0, self.cfg["num_classes"], (self.cfg["batch_size"],))
            yield x, y

    def train_epoch(self, epoch):
        self.model.train()
        total = 0.0
        for x, y in self.batches():
            logits = self.model(x)
            loss = self.criterion(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / self.cfg["steps_per_epoch"]

    def fit(self):
        for epoch in range(self.cfg["epochs"]):
            if epoch == self.cfg["monitor"]["start_epoch"]:
                self.monitor.attach()
            avg = self.train_epoch(epoch)
            print(f"epoch {epoch} loss {avg:.4f}")
        print(self.monitor.summary())


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(CFG).fit()
