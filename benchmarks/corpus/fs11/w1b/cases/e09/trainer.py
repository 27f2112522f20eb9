import torch


class Trainer:
    def __init__(self, model, config, train_batches, eval_batches):
        self.model = model
        self.config = config
        self.train_batches = train_batches
        self.eval_batches = eval_batches
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"],
                                           weight_decay=config["weight_decay"])
        self.global_step = 0
        self.history = []

    def training_step(self, batch):
        self.model.train()
        _, loss = self.model(batch, labels=batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config["max_grad_norm"])
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        return loss.item()

    def train(self):
        for epoch in range(self.config["epochs"]):
            for batch in self.train_batches:
                loss = self.training_step(batch)
                self.global_step += 1
                if self.global_step % self.config["log_interval"] == 0:
                    print(f"epoch {epoch} step {self.global_step} loss {loss:.4f}")
                if self.global_step % self.config["eval_interval"] == 0:
                    self.history.append(self.evaluate())

    @torch.inference_mode()
    def evaluate(self):
        self.model.eval()
        total, count = 0.0, 0
        for batch in self.eval_batches:
            _, loss = self.model(batch, labels=batch)
            total += loss.item() * batch.size(0)
            count += batch.size(0)
        ppl = torch.exp(torch.tensor(total / count)).item()
        print(f"step {self.global_step} eval ppl {ppl:.2f}")
        return ppl
