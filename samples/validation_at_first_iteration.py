"""A trainer validates every few iterations from inside its epoch loop, starting at iteration 0.
validate() puts the model in eval mode and never restores it; the epoch's `.train()` ran before,
so the rest of the epoch trains with dropout off."""
import torch
from torch import nn


class Trainer:
    def __init__(self, model, every=4):
        self.model = model
        self.every = every
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
        self.data = [(torch.randn(8, 10), torch.randint(0, 3, (8,))) for _ in range(6)]

    def validate(self):
        self.model.eval()
        with torch.no_grad():
            x, y = self.data[0]
            acc = (self.model(x).argmax(1) == y).float().mean().item()
        print(f"val acc {acc:.2f}")

    def train_epoch(self):
        self.model.train()
        for i, (x, y) in enumerate(self.data):
            if i % self.every == 0:
                self.validate()
            self.optimizer.zero_grad()
            loss = nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            self.optimizer.step()


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 3))
Trainer(net).train_epoch()
