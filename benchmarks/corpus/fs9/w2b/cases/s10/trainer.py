import copy

import torch
import torch.nn.functional as F


class SelfDistillationTrainer:
    def __init__(self, model, args, train_batches):
        self.model = model
        self.args = args
        self.train_batches = train_batches
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
        self.teacher_model = self._build_teacher()
        if args.disable_dropout:
            for m in self.model.modules():
                if isinstance(m, torch.nn.Dropout):
                    m.p = 0.0
        self.state = {"global_step": 0, "log_history": []}

    def _build_teacher(self):
        if self.args.teacher_mode == "live":
            return self.model
        teacher = copy.deepcopy(self.model)
        teacher.requires_grad_(False)
        return teacher

    @torch.no_grad()
    def _update_teacher(self):
        if self.args.teacher_mode != "ema":
            return
        for t, s in zip(self.teacher_model.parameters(), self.model.parameters()):
            t.mul_(self.args.ema_decay).add_(s, alpha=1 - self.args.ema_decay)

    def compute_loss(self, model, inputs):
        labels = inputs.pop("labels")
        self.teacher_model.eval()
        with torch.no_grad():
            teacher_logits = self.teacher_model(**inputs).logits
        outputs = model(**inputs)
        T = self.args.temperature
        kd = F.kl_div(F.log_softmax(outputs.logits / T, -1), F.softmax(teacher_logits / T, -1),
                      reduction="batchmean") * T * T
        ce = F.cross_entropy(outputs.logits, labels)
        return self.args.alpha * kd + (1 - self.args.alpha) * ce

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, dict(inputs))
        loss.backward()
        return loss.detach()

    def train(self):
        for step in range(self.args.max_steps):
            inputs = self.train_batches[step % len(self.train_batches)]
            self.optimizer.zero_grad()
            loss = self.training_step(self.model, inputs)
            self.optimizer.step()
            self._update_teacher()
            self.state["global_step"] += 1
            if self.state["global_step"] % self.args.logging_steps == 0:
                self.state["log_history"].append({"step": self.state["global_step"], "loss": loss.item()})
                print(self.state["log_history"][-1])
        return self.state
