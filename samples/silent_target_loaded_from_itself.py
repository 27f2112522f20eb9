"""A DQN agent syncs its target network from the target's own state dict instead of the online
network's: every sync is a no-op and the targets come from the initial weights forever."""
import copy

import torch
import torch.nn as nn


class Agent:
    def __init__(self):
        self.online = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
        self.target = copy.deepcopy(self.online)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=1e-3)

    def sync(self):
        self.target.load_state_dict(self.target.state_dict())

    def learn(self, s, a, r, s2):
        with torch.no_grad():
            target = r + 0.99 * self.target(s2).max(1).values
        q = self.online(s).gather(1, a[:, None]).squeeze(1)
        loss = nn.functional.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


torch.manual_seed(0)
agent = Agent()
for step in range(6):
    agent.learn(torch.randn(8, 4), torch.randint(0, 2, (8,)), torch.randn(8), torch.randn(8, 4))
    if step % 2 == 1:
        agent.sync()
