import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass
class TrainerConfig:
    lr: float = 0.05
    momentum: float = 0.9
    weight_decay: float = 5e-4
    epochs: int = 2
    micro_batch_size: int = 16
    gradient_accumulation_steps: int = 4
    max_grad_norm: float = 1.0
    log_every: int = 5


class Trainer:
    def __init__(self, model, train_set, val_set, config: TrainerConfig):
        self.model = model
        self.train_set = train_set
        self.val_set = val_set
        self.config = config
        self.optimizer = torch.optim.SGD(
            model.parameters(), lr=config.lr, momentum=config.momentum,
            weight_decay=config.weight_decay, nesterov=True,
        )
        self.global_step = 0

    def micro_batches(self):
        x, y = self.train_set
        perm = torch.randperm(x.size(0))
        bs = self.config.micro_batch_size
        for start in range(0, x.size(0), bs):
            idx = perm[start:start + bs]
            yield x[idx], y[idx]

    def training_step(self, batch):
        x, y = batch
        logits = self.model(x)
        return F.cross_entropy(logits, y)

    def optimizer_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.global_step += 1

    def train_epoch(self, epoch):
        self.model.train()
        accum = self.config.gradient_accumulation_steps
        n_micro = math.ceil(self.train_set[0].size(0) / self.config.micro_batch_size)
        running = 0.0
        self.optimizer.zero_grad(set_to_none=True)
        for i, batch in enumerate(self.micro_batches()):
            loss = self.training_step(batch)
            (loss / accum).backward()
            running += loss.item() / accum
            if (i + 1) % accum == 0 or (i + 1) == n_micro:
                self.optimizer_step()
                if self.global_step % self.config.log_every == 0:
                    print(f"epoch {epoch} step {self.global_step} loss {running:.4f}")
                running = 0.0

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        x, y = self.val_set
        logits = self.model(x)
        loss = F.cross_entropy(logits, y).item()
        acc = (logits.argmax(1) == y).float().mean().item()
        return loss, acc

    def fit(self):
        for epoch in range(self.config.epochs):
            self.train_epoch(epoch)
            loss, acc = self.validate()
            print(f"epoch {epoch} val_loss {loss:.4f} val_acc {acc:.3f}")
