import torch


class Trainer:
    def __init__(self, model, args, train_batches):
        self.model = model
        self.args = args
        self.train_batches = train_batches
        self.optimizer = None

    def create_optimizer(self):
        params = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(params, lr=self.args["learning_rate"],
                                           weight_decay=self.args["weight_decay"])

    def _setup(self):
        if self.args["gradient_checkpointing"]:
            self.model.gradient_checkpointing_enable(self.args.get("gradient_checkpointing_kwargs"))
        self.create_optimizer()
        self.model.train()

    def training_step(self, batch):
        loss, _ = self.model(batch["input_ids"], labels=batch["input_ids"])
        loss = loss / self.args["gradient_accumulation_steps"]
        loss.backward()
        return loss.detach()

    def train(self):
        self._setup()
        step = 0
        for epoch in range(self.args["num_train_epochs"]):
            for i, batch in enumerate(self.train_batches):
                loss = self.training_step(batch)
                if (i + 1) % self.args["gradient_accumulation_steps"] == 0:
                    self.optimizer.step()
                    self.optimizer.zero_grad(set_to_none=True)
                    step += 1
                    if step % self.args["logging_steps"] == 0:
                        print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        return step
