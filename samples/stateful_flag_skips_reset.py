"""A recurrent cell keeps its state on itself; the reset in forward is skipped when the layer is
built stateful, so the next batch starts from a state whose graph the last backward freed."""
import torch
import torch.nn as nn

SETTINGS = {"hidden": 8, "stateful": True, "steps": 5}


class Cell(nn.Module):
    def __init__(self, size, hidden, stateful=False):
        super().__init__()
        self.stateful = stateful
        self.inp = nn.Linear(size, hidden)
        self.rec = nn.Linear(hidden, hidden)
        self.h = None

    def forward(self, x):
        if self.h is None or not self.stateful:
            self.h = x.new_zeros(x.shape[1], self.rec.in_features)
        h = self.h
        for t in range(x.shape[0]):
            h = torch.tanh(self.inp(x[t]) + self.rec(h))
        self.h = h
        return h


torch.manual_seed(0)
cell = Cell(4, SETTINGS["hidden"], stateful=SETTINGS["stateful"])
optimizer = torch.optim.SGD(cell.parameters(), lr=0.1)
for batch in range(3):
    out = cell(torch.randn(SETTINGS["steps"], 2, 4))
    loss = out.pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
