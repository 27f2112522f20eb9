"""A stacked recurrent model keeps its cells in a plain Python list. Each cell's own Linear layers
get gradients, but model.parameters(), and so the optimizer, never sees them."""
import torch
from torch import nn


class GatedCell(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.inp = nn.Linear(size, size)
        self.rec = nn.Linear(size, size)

    def forward(self, x, h):
        return torch.tanh(self.inp(x) + self.rec(h))


class StackedCells(nn.Module):
    def __init__(self, size, depth):
        super().__init__()
        self.cells = []
        for _ in range(depth):
            self.cells.append(GatedCell(size))
        self.out = nn.Linear(size, 1)

    def forward(self, seq):
        hs = [torch.zeros(seq.shape[1], seq.shape[2]) for _ in self.cells]
        for x in seq:
            for i, cell in enumerate(self.cells):
                hs[i] = cell(x, hs[i])
                x = hs[i]
        return self.out(x)


torch.manual_seed(0)
model = StackedCells(6, depth=2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(3):
    seq, target = torch.randn(5, 4, 6), torch.randn(4, 1)
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(seq), target)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
