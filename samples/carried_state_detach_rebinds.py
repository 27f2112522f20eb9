"""Truncated backpropagation through time with a state object whose detach() rebinds its loop
variable (`h = h.detach()`): the tensors the state keeps still hold the previous chunk's graph,
and the next chunk's backward runs into it."""
import torch
import torch.nn as nn


class RecurrentState:
    def __init__(self, hidden, cell):
        self.hidden, self.cell = hidden, cell

    def detach(self):
        for h in (self.hidden, self.cell):
            h = h.detach()


torch.manual_seed(0)
lstm = nn.LSTMCell(4, 8)
head = nn.Linear(8, 1)
optimizer = torch.optim.SGD([*lstm.parameters(), *head.parameters()], lr=0.1)
sequence, targets = torch.randn(12, 2, 4), torch.randn(12, 2, 1)
state = RecurrentState(torch.zeros(2, 8), torch.zeros(2, 8))
for start in range(0, 12, 4):
    loss = 0.0
    for t in range(start, start + 4):
        state.hidden, state.cell = lstm(sequence[t], (state.hidden, state.cell))
        loss = loss + nn.functional.mse_loss(head(state.hidden), targets[t])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    state.detach()
