from dataclasses import dataclass

import torch


@dataclass
class TrainerConfig:
    max_epochs: int = 2
    batch_size: int = 8
    learning_rate: float = 3e-4
    weight_decay: float = 0.1
    grad_norm_clip: float = 1.0
    use_amp: bool = True
    log_every: int = 2


class Trainer:
    def __init__(self, trainer_config, model, optimizer, train_data, device="cpu"):
        self.config = trainer_config
        self.device = device
        self.model = model.to(device)
        self.optimizer = optimizer
        self.train_data = train_data
        self.scaler = torch.amp.GradScaler(device, enabled=self.config.use_amp)
        self.epochs_run = 0

    def _run_batch(self, source, targets, train: bool = True) -> float:
        with torch.set_grad_enabled(train), torch.amp.autocast(
            device_type=self.device, dtype=torch.bfloat16, enabled=self.config.use_amp
        ):
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

    def _run_epoch(self, epoch, dataloader, train: bool = True):
        for it, (source, targets) in enumerate(dataloader):
            step_type = "Train" if train else "Eval"
            batch_loss = self._run_batch(source.to(self.device), targets.to(self.device), train)
            if it % self.config.log_every == 0:
                print(f"Epoch {epoch} | Iter {it} | {step_type} Loss {batch_loss:.5f}")

    def train(self):
        for epoch in range(self.epochs_run, self.config.max_epochs):
            self._run_epoch(epoch, self.train_data, train=True)
