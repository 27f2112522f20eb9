import torch
import torch.nn.functional as F
from torch import nn

from ema import ModelEMA

CONFIG = dict(num_classes=5, in_dim=24, labeled=32, unlabeled=96, steps=30, lr=0.05,
              ema_decay=0.99, consistency_weight=1.0, noise_std=0.1)


class Classifier(nn.Module):
    def __init__(self, in_dim, num_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, 48), nn.BatchNorm1d(48), nn.ReLU(), nn.Linear(48, 48), nn.ReLU())
        self.head = nn.Linear(48, num_classes)

    def forward(self, x):
        return self.head(self.body(x))


def augment(x, std):
    return x + std * torch.randn_like(x)


def consistency_loss(student_logits, teacher_logits):
    return F.mse_loss(F.softmax(student_logits, dim=1), F.softmax(teacher_logits, dim=1))


def main(cfg):
    torch.manual_seed(0)
    student = Classifier(cfg["in_dim"], cfg["num_classes"])
    teacher = ModelEMA(student, decay=cfg["ema_decay"])
    optimizer = torch.optim.SGD(student.parameters(), lr=cfg["lr"], momentum=0.9, nesterov=True)

    x_l = torch.randn(cfg["labeled"], cfg["in_dim"])
    y_l = torch.randint(0, cfg["num_classes"], (cfg["labeled"],))
    x_u = torch.randn(cfg["unlabeled"], cfg["in_dim"])

    student.train()
    for step in range(cfg["steps"]):
        x_all = torch.cat([x_l, x_u])
        logits = student(augment(x_all, cfg["noise_std"]))
        sup = F.cross_entropy(logits[: cfg["labeled"]], y_l)

        with torch.no_grad():
            teacher_logits = teacher(augment(x_all, cfg["noise_std"]))
        ramp = min(1.0, (step + 1) / 10)
        cons = consistency_loss(logits, teacher_logits)
        loss = sup + cfg["consistency_weight"] * ramp * cons

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        teacher.update(student)

        if step % 10 == 0:
            print(f"step {step} sup {sup.item():.4f} cons {cons.item():.5f}")
    return student, teacher


if __name__ == "__main__":
    student, teacher = main(CONFIG)
