import torch


class Trainer:
    def __init__(self, model, optimizer, config):
        self.model = model
        self.optimizer = optimizer
        self.config = config
        self.global_step = 0

    def compute_loss(self, batch):
        outputs = self.model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                             labels=batch["labels"])
        return outputs.loss

    def optimizer_step(self, zero_grad: bool = False):
        if self.config["max_grad_norm"] is not None:
            torch.nn.utils.clip_grad_norm_(
                [p for p in self.model.parameters() if p.requires_grad], self.config["max_grad_norm"]
            )
        self.optimizer.step()
        if zero_grad:
            self.optimizer.zero_grad()

    def training_step(self, batch):
        self.model.train()
        loss = self.compute_loss(batch)
        loss.backward()
        self.optimizer_step()
        self.global_step += 1
        return loss.detach()

    def train(self, train_batches, val_batches=None):
        for epoch in range(self.config["num_epochs"]):
            for batch in train_batches:
                loss = self.training_step(batch)
                if self.global_step % self.config["log_every"] == 0:
                    print(f"epoch {epoch} step {self.global_step}: train/loss {loss.item():.4f}")
            if val_batches:
                print(f"epoch {epoch}: val/loss {self.evaluate(val_batches):.4f}")

    @torch.no_grad()
    def evaluate(self, batches):
        self.model.eval()
        losses = [self.compute_loss(b).item() for b in batches]
        return sum(losses) / len(losses)
