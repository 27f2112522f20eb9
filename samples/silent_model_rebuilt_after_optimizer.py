"""A trainer builds its network and optimizer once; each round after the first retrains from
scratch by building the network again, but the optimizer still holds the first network's
parameters, so the network it returns never trains."""
import torch
from torch import nn


def build_network(n_in, hidden):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, 1))


class Trainer:
    def __init__(self, config):
        self.config = config
        self.net = build_network(config["n_in"], config["hidden"])
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config["lr"])

    def fit(self, x, y, from_scratch):
        if from_scratch:
            self.net = build_network(self.config["n_in"], self.config["hidden"])
        for _ in range(3):
            self.optimizer.zero_grad()
            loss = (self.net(x) - y).pow(2).mean()
            loss.backward()
            self.optimizer.step()
        return loss.item()


torch.manual_seed(0)
trainer = Trainer({"n_in": 4, "hidden": 16, "lr": 1e-2})
for round_ in range(3):
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    print(f"round {round_}: loss {trainer.fit(x, y, from_scratch=round_ > 0):.4f}")
