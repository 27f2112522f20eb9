"""Correct: a learned update rule unrolled over a few inner steps. Each inner step asks
autograd.grad for the gradient of the inner loss only; the recurrent state of the update network
is carried across those calls on purpose, and the outer loss backpropagates through all of them."""
import torch
from torch import nn


class UpdateNet(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.cell = nn.GRUCell(1, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, grad, state):
        state = self.cell(grad.view(-1, 1), state)
        return self.out(state).view(-1), state


def inner_loss(w, x, y):
    return ((x @ w - y) ** 2).mean()


torch.manual_seed(0)
updater = UpdateNet()
meta_optimizer = torch.optim.Adam(updater.parameters(), lr=1e-2)
for episode in range(3):
    x, y = torch.randn(16, 4), torch.randn(16)
    w = torch.zeros(4, requires_grad=True)
    state = torch.zeros(4, 8)
    total = 0
    for step in range(4):
        (grad,) = torch.autograd.grad(inner_loss(w, x, y), w)
        update, state = updater(grad.detach(), state)
        w = w + update
        total = total + inner_loss(w, x, y)
    meta_optimizer.zero_grad()
    total.backward()
    meta_optimizer.step()
    print(f"episode {episode}: {total.item():.4f}")
