from dataclasses import dataclass

import torch
import torch.nn.functional as F

from model import GPT, GPTConfig
from sophia import SophiaG


@dataclass
class TrainConfig:
    seed: int = 1337
    batch_size: int = 4
    max_iters: int = 6
    learning_rate: float = 3e-4
    weight_decay: float = 0.2
    rho: float = 0.05
    grad_clip: float = 1.0
    hess_interval: int = 3
    log_interval: int = 1


class Trainer:
    def __init__(self, cfg: TrainConfig, model_cfg: GPTConfig):
        torch.manual_seed(cfg.seed)
        self.cfg = cfg
        self.model_cfg = model_cfg
        self.model = GPT(model_cfg)
        self.optimizer = SophiaG(
            self.model.parameters(), lr=cfg.learning_rate, betas=(0.965, 0.99),
            rho=cfg.rho, weight_decay=cfg.weight_decay,
        )
        self.data = torch.randint(0, model_cfg.vocab_size, (2048,))
        self.iter_num = 0

    def get_batch(self):
        T = self.model_cfg.block_size
        ix = torch.randint(len(self.data) - T - 1, (self.cfg.batch_size,))
        x = torch.stack([self.data[i:i + T] for i in ix])
        y = torch.stack([self.data[i + 1:i + 1 + T] for i in ix])
        return x, y

    def update_hessian(self, logits):
        samp_dist = torch.distributions.Categorical(logits=logits)
        y_sample = samp_dist.sample()
        loss_sampled = F.cross_entropy(logits.view(-1, logits.size(-1)), y_sample.view(-1), ignore_index=-1)
        loss_sampled.backward()
        self.optimizer.update_hessian()
        self.optimizer.zero_grad(set_to_none=True)

    def train(self):
        cfg = self.cfg
        self.model.train()
        while self.iter_num < cfg.max_iters:
            X, Y = self.get_batch()
            logits, loss = self.model(X, Y)
            loss.backward()
            if cfg.grad_clip != 0.0:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), cfg.grad_clip)
            self.optimizer.step(bs=cfg.batch_size * self.model_cfg.block_size)
            self.optimizer.zero_grad(set_to_none=True)

            if self.iter_num % cfg.hess_interval == cfg.hess_interval - 1:
                self.update_hessian(logits)

            if self.iter_num % cfg.log_interval == 0:
                print(f"iter {self.iter_num}: loss {loss.item():.4f}")
            self.iter_num += 1


if __name__ == "__main__":
    Trainer(TrainConfig(), GPTConfig()).train()
