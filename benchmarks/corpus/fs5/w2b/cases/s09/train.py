import math

import torch
from torch.utils.data import DataLoader, TensorDataset
from accelerate import Accelerator
from accelerate.utils import set_seed

from model import QwenLiteVLA

CONFIG = {
    "seed": 7,
    "per_device_batch_size": 4,
    "gradient_accumulation_steps": 4,
    "learning_rate": 3e-4,
    "weight_decay": 0.01,
    "max_grad_norm": 1.0,
    "num_samples": 64,
    "warmup_steps": 2,
}


def build_dataset(n):
    images = torch.randn(n, 3, 32, 32)
    instr = torch.randint(0, 128, (n, 6))
    actions = torch.tanh(torch.randn(n, 4, 7))
    return TensorDataset(images, instr, actions)


def build_scheduler(optimizer, warmup, total):
    def lr_lambda(step):
        if step < warmup:
            return (step + 1) / warmup
        return 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, total - warmup)))
    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)


class VLATrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.accelerator = Accelerator(gradient_accumulation_steps=cfg["gradient_accumulation_steps"], cpu=True)
        self.model = QwenLiteVLA()
        loader = DataLoader(build_dataset(cfg["num_samples"]), batch_size=cfg["per_device_batch_size"], shuffle=True)
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg["learning_rate"],
                                      weight_decay=cfg["weight_decay"])
        total = len(loader) // cfg["gradient_accumulation_steps"]
        scheduler = build_scheduler(optimizer, cfg["warmup_steps"], total)
        self.model, self.optimizer, self.loader, self.scheduler = self.accelerator.prepare(
            self.model, optimizer, loader, scheduler)
        self.global_step = 0

    def train_step(self, batch):
        with self.accelerator.accumulate(self.model):
            self.optimizer.zero_grad()
            loss = self.accelerator.unwrap_model(self.model).compute_loss(batch)
            self.accelerator.backward(loss)
            if self.accelerator.sync_gradients:
                self.accelerator.clip_grad_norm_(self.model.parameters(), self.cfg["max_grad_norm"])
            self.optimizer.step()
            self.scheduler.step()
        return loss.detach()

    def train(self):
        self.model.train()
        for batch in self.loader:
            loss = self.train_step(batch)
            if self.accelerator.sync_gradients:
                self.global_step += 1
                self.accelerator.print(f"step {self.global_step} loss {loss.item():.4f}")


def main():
    set_seed(CONFIG["seed"])
    trainer = VLATrainer(CONFIG)
    trainer.train()
    return trainer


if __name__ == "__main__":
    trainer = main()
