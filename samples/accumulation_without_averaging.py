"""A trainer accumulates gradients over `accum_steps` micro-batches to stand for one larger batch,
but backpropagates each micro-batch's mean loss as it is: every step applies the sum, four times
the gradient of the large batch."""
import torch
from torch import nn

CONFIG = {"accum_steps": 4, "lr": 0.05}


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.accum_steps = cfg["accum_steps"]
        self.optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"])

    def micro_step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        return loss.item()

    def epoch(self, batches):
        self.optimizer.zero_grad()
        for i, (x, y) in enumerate(batches):
            self.micro_step(x, y)
            if (i + 1) % self.accum_steps == 0:
                self.optimizer.step()
                self.optimizer.zero_grad()


torch.manual_seed(0)
data = [(torch.randn(4, 6), torch.randn(4, 1)) for _ in range(8)]
Trainer(nn.Linear(6, 1), CONFIG).epoch(data)
