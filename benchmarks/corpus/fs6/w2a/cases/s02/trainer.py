from dataclasses import dataclass

import torch


@dataclass
class TrainerConfig:
    max_epochs: int = 1
    batch_size: int = 8
    learning_rate: float = 0.05
    momentum: float = 0.9
    optimizer: str = "sgd"
    grad_norm_clip: float = 1.0
    use_amp: bool = True


def create_optimizer(model, cfg):
    if cfg.optimizer == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate)
    return torch.optim.SGD(model.parameters(), lr=cfg.learning_rate, momentum=cfg.momentum)


class Trainer:
    def __init__(self, config, model, optimizer, train_data):
        self.config = config
        self.model = model
        self.optimizer = optimizer
        self.train_data = train_data
        self.scaler = torch.amp.GradScaler("cpu", enabled=config.use_amp)
        self.epochs_run = 0

    def _run_batch(self, source, targets, train=True):
        with torch.set_grad_enabled(train), torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.config.use_amp):
            _, loss = self.model(source, targets)

        if train:
            self.optimizer.zero_grad(set_to_none=True)
            if self.config.use_amp:
                self.scaler.scale(loss).backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.grad_norm_clip)
                self.scaler.step(self.optimizer)
                self.scaler.update()
            else:
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.grad_norm_clip)
                self.optimizer.step()
        return loss.item()

    def _run_epoch(self, epoch):
        for it, (source, targets) in enumerate(self.train_data):
            loss = self._run_batch(source, targets)
            if it % 2 == 0:
                print(f"epoch {epoch} iter {it}: train loss {loss:.5f}")

    def train(self):
        for epoch in range(self.epochs_run, self.config.max_epochs):
            self._run_epoch(epoch)
            self.epochs_run += 1
