import torch
import torch.nn as nn
import torch.nn.functional as F

from ema import ModelEMA

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, dim=16, hidden=48, classes=4):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(0.1)
        )
        self.cls = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.cls(self.body(x))


def augment(x):
    noise = torch.randn_like(x) * 0.1
    x = x + noise
    x[:, :4] *= torch.empty(x.size(0), 1).uniform_(0.8, 1.2)
    return x


def consistency_weight(step, rampup=20, max_w=1.0):
    t = min(step, rampup) / rampup
    return max_w * float(torch.exp(torch.tensor(-5.0 * (1 - t) ** 2)))


student = Encoder()
teacher = ModelEMA(student, decay=0.99)
optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, nesterov=True)

for step in range(30):
    x_l = torch.randn(16, 16)
    y_l = torch.randint(0, 4, (16,))
    x_u = torch.randn(32, 16)

    student.train()
    logits_l = student(augment(x_l))
    logits_u = student(augment(x_u))
    with torch.no_grad():
        teacher_probs = F.softmax(teacher.module(augment(x_u)), dim=1)

    sup = F.cross_entropy(logits_l, y_l)
    cons = F.mse_loss(F.softmax(logits_u, dim=1), teacher_probs)
    loss = sup + consistency_weight(step) * cons

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    teacher.update(student)

    if step % 10 == 0:
        print(f"step {step}: sup {sup.item():.4f} cons {cons.item():.5f}")
