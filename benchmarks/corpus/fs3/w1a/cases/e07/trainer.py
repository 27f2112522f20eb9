"""Trainer with gradient accumulation over micro-batches."""
import torch
from torch.nn.utils import parametrize

from model import contrastive_loss


class Trainer:
    def __init__(self, model, optimizer, accum_steps=1, max_grad_norm=1.0):
        self.model = model
        self.optimizer = optimizer
        self.accum_steps = accum_steps
        self.max_grad_norm = max_grad_norm

    def _micro_batches(self, batch):
        n = batch["a_ids"].size(0)
        size = max(n // self.accum_steps, 1)
        for i in range(0, n, size):
            yield {k: v[i:i + size] for k, v in batch.items()}

    def train_step(self, batch):
        self.model.train()
        self.optimizer.zero_grad(set_to_none=True)
        total = 0.0
        with parametrize.cached():
            for mb in self._micro_batches(batch):
                za, zb = self.model(mb["a_ids"], mb["a_mask"], mb["b_ids"], mb["b_mask"])
                loss = contrastive_loss(za, zb) / self.accum_steps
                loss.backward()
                total += loss.item()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.optimizer.step()
        return total

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for step, batch in enumerate(batches):
                loss = self.train_step(batch)
                print(f"epoch {epoch} step {step}: loss {loss:.4f}")
