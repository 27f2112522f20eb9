import torch
import torch.nn.functional as F
from torch import nn

from ema import ModelEMA


class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )
        self.dropout = nn.Dropout(0.2)
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.dropout(self.features(x).flatten(1)))


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    return x + noise


def consistency_loss(student_logits, teacher_logits):
    return F.mse_loss(student_logits.softmax(-1), teacher_logits.softmax(-1))


def main():
    torch.manual_seed(0)
    student = ConvNet()
    teacher = ModelEMA(student, decay=0.99)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    cons_weight = 10.0
    for step in range(20):
        x_l = torch.randn(8, 3, 16, 16)
        y_l = torch.randint(0, 10, (8,))
        x_u = torch.randn(16, 3, 16, 16)

        student.train()
        sup = F.cross_entropy(student(x_l), y_l)
        student_u = student(augment(x_u))
        with torch.no_grad():
            teacher_u = teacher.module(augment(x_u))
        ramp = min(1.0, step / 10)
        loss = sup + cons_weight * ramp * consistency_loss(student_u, teacher_u)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        teacher.update(student, step)
        if step % 5 == 0:
            print(f"step {step:2d}  sup {sup.item():.4f}  total {loss.item():.4f}")
    return student, teacher


if __name__ == "__main__":
    model, teacher = main()
