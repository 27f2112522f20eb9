"""An EMA copy of the model averages its parameters only. Batch-norm statistics are buffers: the
copy's stay at their initial values (mean 0, variance 1), and the EMA model is evaluated with
them. Nothing raises; its accuracy is poor."""
import copy

import torch
import torch.nn as nn


class EMA:
    def __init__(self, model, decay=0.9):
        self.model = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_p, p in zip(self.model.parameters(), model.parameters()):
            ema_p.lerp_(p, 1 - self.decay)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 1))
ema = EMA(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(5):
    x, y = torch.randn(8, 4) * 3 + 2, torch.randn(8, 1)
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ema.update(model)
with torch.no_grad():
    print("ema loss", round(nn.functional.mse_loss(ema.model(x), y).item(), 4))
