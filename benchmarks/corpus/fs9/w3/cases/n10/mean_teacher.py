import copy
import math

import torch
import torch.nn.functional as F


def sigmoid_rampup(current, rampup_length):
    if rampup_length == 0:
        return 1.0
    phase = 1.0 - min(current, rampup_length) / rampup_length
    return float(math.exp(-5.0 * phase * phase))


class MeanTeacher:
    def __init__(self, student, ema_decay, consistency, rampup):
        self.student = student
        self.teacher = copy.deepcopy(student)
        for p in self.teacher.parameters():
            p.detach_()
        self.ema_decay = ema_decay
        self.consistency = consistency
        self.rampup = rampup

    @torch.no_grad()
    def update_teacher(self, global_step):
        alpha = min(1 - 1 / (global_step + 1), self.ema_decay)
        for t_p, s_p in zip(self.teacher.parameters(), self.student.parameters()):
            t_p.mul_(alpha).add_(s_p, alpha=1 - alpha)
        for t_b, s_b in zip(self.teacher.buffers(), self.student.buffers()):
            t_b.copy_(s_b)

    def loss(self, x_lab, y_lab, x_unl, global_step, noise):
        x_all = torch.cat([x_lab, x_unl])
        s_logits = self.student(x_all + noise * torch.randn_like(x_all))
        with torch.no_grad():
            t_logits = self.teacher(x_all + noise * torch.randn_like(x_all))
        class_loss = F.cross_entropy(s_logits[: x_lab.size(0)], y_lab)
        cons_w = self.consistency * sigmoid_rampup(global_step, self.rampup)
        cons_loss = F.mse_loss(F.softmax(s_logits, -1), F.softmax(t_logits, -1))
        return class_loss + cons_w * cons_loss, class_loss.detach(), cons_loss.detach()
