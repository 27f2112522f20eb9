import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 4))

    def forward(self, x):
        return self.body(x)


@torch.no_grad()
def update_teacher(student, teacher, momentum=0.99):
    for p_s, p_t in zip(student.parameters(), teacher.parameters()):
        p_t.mul_(momentum).add_(p_s.detach(), alpha=1 - momentum)
    for b_s, b_t in zip(student.buffers(), teacher.buffers()):
        b_t.copy_(b_s)


def main():
    torch.manual_seed(0)
    student = Net()
    teacher = copy.deepcopy(student)
    for p in teacher.parameters():
        p.requires_grad_(False)
    optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
    for step in range(6):
        x = torch.randn(32, 16)
        y = torch.randint(0, 4, (32,))
        x_aug = x + 0.1 * torch.randn_like(x)
        with torch.no_grad():
            t_probs = F.softmax(teacher(x_aug), dim=1)
        logits = student(x)
        loss = F.cross_entropy(logits, y) + F.mse_loss(F.softmax(logits, dim=1), t_probs)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        update_teacher(student, teacher)
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
