"""The number of outputs is computed from the configured list of targets; with more than one,
the forward splits the prediction and re-wraps each part as a new leaf (`.detach()` then
`requires_grad_`), so the backward of the loss reaches no parameter of the model."""
import torch
from torch import nn

CONFIG = {"targets": ["load", "price"], "hidden": 16}


class Forecaster(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.target_names = config["targets"]
        self.n_outputs = len(self.target_names)
        self.net = nn.Sequential(nn.Linear(8, config["hidden"]), nn.ReLU(), nn.Linear(config["hidden"], self.n_outputs))

    def forward(self, x):
        prediction = self.net(x)
        if self.n_outputs > 1:
            prediction = [prediction[:, i].clone().detach().requires_grad_(True) for i in range(self.n_outputs)]
        return prediction


torch.manual_seed(0)
model = Forecaster(CONFIG)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(3):
    x, y = torch.randn(16, 8), torch.randn(16, 2)
    parts = model(x)
    loss = sum((p - y[:, i]).abs().mean() for i, p in enumerate(parts))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
