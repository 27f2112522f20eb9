"""A recurrent graph layer keeps its evolved weight on itself between snapshots; the trainer
resets that state only every `state_reset_every` epochs, so the next epoch starts from a weight
whose graph the last backward freed."""
import torch
from torch import nn

SETTINGS = {"epochs": 3, "snapshots": 3, "state_reset_every": 2}


class EvolvingLinear(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.initial = nn.Parameter(torch.randn(dim, dim) * 0.1)
        self.cell = nn.GRUCell(dim, dim)
        self.weight = None

    def reset_state(self):
        self.weight = None

    def forward(self, x):
        start = self.initial if self.weight is None else self.weight
        self.weight = self.cell(start, start)
        return x @ self.weight


torch.manual_seed(0)
model = EvolvingLinear(4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(SETTINGS["epochs"]):
    loss = sum(model(torch.randn(5, 4)).pow(2).mean() for _ in range(SETTINGS["snapshots"]))
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    if epoch % SETTINGS["state_reset_every"] == 0:
        model.reset_state()
