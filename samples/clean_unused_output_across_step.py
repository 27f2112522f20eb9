"""A two-headed model; each step also checks, on a held-out batch, how often the value head
predicts the right sign. That check keeps its forward's graph (it runs without no_grad) when
optimizer.step() changes the weights the graph saved, but no backward ever goes through it:
correct (only wasteful), and gradscope must stay quiet."""
import torch
import torch.nn as nn


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(6, 12)
        self.aux = nn.Linear(12, 3)
        self.value = nn.Linear(12, 1)

    def forward(self, x):
        h = torch.tanh(self.trunk(x))
        return self.aux(h), self.value(h)


torch.manual_seed(0)
model = TwoHeads()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
held_x, held_y = torch.randn(16, 6), torch.randn(16, 1)
for step in range(3):
    x, y = torch.randn(8, 6), torch.randn(8, 1)
    aux, value = model(x)
    loss = nn.functional.mse_loss(value, y) + 0.1 * aux.pow(2).mean()
    _, held_value = model(held_x)
    agreement = ((held_value > 0) == (held_y > 0)).float().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} sign agreement {agreement.item():.2f}")
