import math

import torch


class LMTrainer:
    def __init__(self, model, optimizer, gradient_checkpointing=True, eval_every=2):
        self.model = model
        self.optimizer = optimizer
        self.eval_every = eval_every
        if gradient_checkpointing:
            self.model.config.use_cache = False
            self.model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        self.history = []

    def training_step(self, batch):
        self.model.train()
        out = self.model(input_ids=batch, labels=batch)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return out.loss.item()

    @torch.no_grad()
    def evaluate(self, batches):
        self.model.eval()
        losses = [self.model(input_ids=b, labels=b).loss.item() for b in batches]
        self.model.train()
        return math.exp(sum(losses) / len(losses))

    def fit(self, train_batches, eval_batches):
        for step, batch in enumerate(train_batches, 1):
            loss = self.training_step(batch)
            self.history.append(loss)
            if step % self.eval_every == 0:
                print(f"step {step} loss {loss:.4f} eval_ppl {self.evaluate(eval_batches):.2f}")
