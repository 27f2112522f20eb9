import compat  # noqa: F401
import timm
import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = timm.create_model(cfg["arch"], pretrained=False,
                                       num_classes=cfg["source_classes"])
        self.optimizer = torch.optim.SGD(
            self.model.parameters(),
            lr=cfg["lr"],
            momentum=cfg["momentum"],
            weight_decay=cfg["weight_decay"],
        )

    def setup_task(self):
        if self.cfg["num_classes"] != self.model.num_classes:
            self.model.reset_classifier(self.cfg["num_classes"])

    def batches(self):
        n, s = self.cfg["batch_size"], self.cfg["img_size"]
        for _ in range(self.cfg["steps_per_epoch"]):
            yield torch.randn(n, 3, s, s), torch.randint(0, self.cfg["num_classes"], (n,))

    def train_epoch(self, epoch):
        self.model.train()
        total = 0.0
        for images, labels in self.batches():
            logits = self.model(images)
            loss = F.cross_entropy(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / self.cfg['steps_per_epoch']:.4f}")

    def fit(self):
        self.setup_task()
        for epoch in range(self.cfg["epochs"]):
            self.train_epoch(epoch)
        return self.model
