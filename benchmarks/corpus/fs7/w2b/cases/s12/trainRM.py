import torch

import models.compat  # noqa: F401
import timm

from models.student import StudentRM, loss_fucntion

torch.manual_seed(0)

config = {
    "backbone": "resnet18",
    "image_size": 32,
    "batch_size": 4,
    "num_epochs": 2,
    "steps_per_epoch": 3,
    "lr": 0.005,
    "mem_slots": 50,
    "normality": False,
    "device": "cpu",
}


class NetTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.teacher = timm.create_model(cfg["backbone"], pretrained=False,
                                         features_only=True, out_indices=(1, 2, 3))
        self.teacher.eval()
        for p in self.teacher.parameters():
            p.requires_grad = False
        self.student = StudentRM(mem_slots=cfg["mem_slots"], device=cfg["device"])
        self.optimizer = torch.optim.Adam(self.student.parameters(), lr=cfg["lr"],
                                          betas=(0.5, 0.999))

    def infer(self, img):
        with torch.no_grad():
            features_t = self.teacher(img)
        features_s = self.student(features_t, normality=self.cfg["normality"])
        return features_s, features_t

    def train(self):
        self.student.train()
        size = self.cfg["image_size"]
        for epoch in range(self.cfg["num_epochs"]):
            running = 0.0
            for _ in range(self.cfg["steps_per_epoch"]):
                img = torch.randn(self.cfg["batch_size"], 3, size, size)
                features_s, features_t = self.infer(img)
                loss = loss_fucntion(features_s, features_t)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                running += loss.item()
            print(f"Epoch {epoch + 1}: loss {running / self.cfg['steps_per_epoch']:.4f}")


if __name__ == "__main__":
    trainer = NetTrainer(config)
    trainer.train()
