"""A running-average meter is given the loss tensor itself: its `total += value * n` chains every
iteration's graph to the next, so all of them stay in memory. Nothing raises; memory grows."""
import torch
import torch.nn as nn


class RunningAverage:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def add(self, value, n=1):
        self.total += value * n
        self.count += n

    def mean(self):
        return self.total / max(self.count, 1)


torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
meter = RunningAverage()
for _ in range(5):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    meter.add(loss, x.shape[0])
print("mean loss", round(float(meter.mean()), 4))
