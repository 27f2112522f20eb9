"""A critic trained with an R1 gradient penalty: the penalty is computed (its gradients asked for
with create_graph=True), logged, and never added to the loss that is backpropagated."""

import torch
from torch import nn

torch.manual_seed(0)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


def r1_penalty(critic, real):
    real = real.detach().requires_grad_(True)
    scores = critic(real)
    (grad,) = torch.autograd.grad(scores.sum(), real, create_graph=True)
    return grad.pow(2).sum(dim=1).mean()


class CriticTrainer:
    def __init__(self, critic, gamma=10.0):
        self.critic = critic
        self.gamma = gamma
        self.optimizer = torch.optim.Adam(critic.parameters(), lr=1e-3)

    def step(self, real, fake):
        self.optimizer.zero_grad()
        penalty = r1_penalty(self.critic, real)
        loss = self.critic(fake).mean() - self.critic(real).mean()
        loss.backward()
        self.optimizer.step()
        return loss.item(), penalty.item()


trainer = CriticTrainer(Critic())
for it in range(3):
    real, fake = torch.randn(32, 8) + 1.0, torch.randn(32, 8)
    loss, penalty = trainer.step(real, fake)
    print(f"iter {it}: loss {loss:.3f} penalty {penalty:.3f}")
