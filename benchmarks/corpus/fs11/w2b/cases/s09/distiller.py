import torch
import torch.nn.functional as F


class LogitsDistiller:
    def __init__(self, student, teacher, optimizer, temperature, alpha,
                 gradient_accumulation_steps=1, max_grad_norm=None):
        self.student = student
        self.teacher = teacher
        self.optimizer = optimizer
        self.temperature = temperature
        self.alpha = alpha
        self.grad_accum = gradient_accumulation_steps
        self.max_grad_norm = max_grad_norm
        self.global_step = 0

    def distillation_loss(self, student_logits, teacher_logits, labels):
        t = self.temperature
        s = F.log_softmax(student_logits / t, dim=-1)
        p = F.softmax(teacher_logits / t, dim=-1)
        kd = F.kl_div(s, p, reduction="batchmean") * (t ** 2)
        ce = F.cross_entropy(
            student_logits[:, :-1].reshape(-1, student_logits.size(-1)),
            labels[:, 1:].reshape(-1),
        )
        return self.alpha * kd + (1.0 - self.alpha) * ce

    def compute_loss(self, batch):
        input_ids = batch["input_ids"]
        with torch.no_grad():
            teacher_logits = self.teacher(input_ids=input_ids).logits
        student_logits = self.student(input_ids=input_ids).logits
        return self.distillation_loss(student_logits, teacher_logits, input_ids)

    def training_step(self, batch):
        loss = self.compute_loss(batch)
        loss.backward()
        return loss.detach()

    def train_epoch(self, loader):
        self.student.train()
        self.teacher.eval()
        self.optimizer.zero_grad()
        running = 0.0
        for step, batch in enumerate(loader):
            running += self.training_step(batch).item()
            if (step + 1) % self.grad_accum == 0:
                if self.max_grad_norm is not None:
                    torch.nn.utils.clip_grad_norm_(self.student.parameters(), self.max_grad_norm)
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.global_step += 1
                print(f"step {self.global_step} loss {running:.4f}")
                running = 0.0
