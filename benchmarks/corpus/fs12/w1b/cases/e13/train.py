import torch
import torch.nn.functional as F

from config import TrainConfig
from modeling import AutoEncoder


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = AutoEncoder(cfg)
        if cfg.grad_checkpointing:
            self.model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=cfg.checkpoint_kwargs)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr)

    def training_step(self, batch):
        recon = self.model(batch)
        return F.mse_loss(recon, batch)

    def fit(self, data):
        self.model.train()
        for step in range(self.cfg.steps):
            idx = torch.randint(0, data.shape[0], (self.cfg.batch_size,))
            loss = self.training_step(data[idx])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(f"step {step} loss={loss.item():.4f}")


def main():
    torch.manual_seed(0)
    cfg = TrainConfig()
    data = torch.randn(512, cfg.in_dim)
    Trainer(cfg).fit(data)


if __name__ == "__main__":
    main()
