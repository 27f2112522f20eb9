"""A helper prepares the student for distillation: it copies the teacher with copy.deepcopy,
under @torch.inference_mode() (nothing is meant to be trained there). Every parameter of the
copy is an inference tensor, and the first training step cannot save one for backward."""
import copy

import torch
import torch.nn as nn


@torch.inference_mode()
def make_student(teacher):
    student = copy.deepcopy(teacher)
    for param in student.parameters():
        param.mul_(0.5)
    return student


torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
student = make_student(teacher)
optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
x, y = torch.randn(4, 8), torch.randint(0, 2, (4,))
loss = nn.functional.cross_entropy(student(x), y)
loss.backward()
