"""Self-distillation where the config's teacher mode "live" makes the teacher the student
object itself: the "teacher" logits move with every step of the student."""
import copy

import torch
import torch.nn.functional as F
from torch import nn

CONFIG = {"teacher_mode": "live", "temperature": 2.0}


class Distiller:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        self.teacher = self._build_teacher()

    def _build_teacher(self):
        if self.cfg["teacher_mode"] == "live":
            return self.model
        teacher = copy.deepcopy(self.model)
        teacher.requires_grad_(False)
        return teacher

    def step(self, x, y):
        with torch.no_grad():
            soft = F.softmax(self.teacher(x) / self.cfg["temperature"], -1)
        logits = self.model(x)
        loss = F.cross_entropy(logits, y) + F.kl_div(F.log_softmax(logits, -1), soft, reduction="batchmean")
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


torch.manual_seed(0)
trainer = Distiller(nn.Linear(6, 3), CONFIG)
for _ in range(3):
    trainer.step(torch.randn(8, 6), torch.randint(0, 3, (8,)))
