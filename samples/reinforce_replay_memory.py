"""REINFORCE with a replay memory of (log-prob, return) pairs: the stored log-probs keep graphs
that the first update frees, and a later update samples them again."""
import random

import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
random.seed(0)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2), nn.Softmax(-1))
        self.memory = []


def update(policy, optimizer, log_probs, returns):
    for log_prob, ret in zip(log_probs, returns):
        policy.memory.append((log_prob, ret))
    batch = random.sample(policy.memory, min(8, len(policy.memory)))
    loss = torch.stack([-lp * r for lp, r in batch]).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
for episode in range(3):
    log_probs = []
    for t in range(5):
        m = Categorical(policy.net(torch.randn(4)))
        log_probs.append(m.log_prob(m.sample()))
    update(policy, optimizer, log_probs, [1.0] * 5)
