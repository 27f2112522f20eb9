"""An actor-critic agent keeps each action's log-probability on itself, stores it in a replay
memory with the transition, and learns from a sample of stored log-probabilities: the second
update reuses ones whose graph the first update's backward freed."""
import random

import torch
from torch import nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, n_obs=4, n_actions=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, 16), nn.Tanh())
        self.pi, self.v = nn.Linear(16, n_actions), nn.Linear(16, 1)

    def forward(self, state):
        h = self.body(state)
        return self.pi(h), self.v(h).squeeze(-1)


class Agent:
    def __init__(self):
        self.net = ActorCritic()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=1e-3)
        self.memory = []
        self.log_prob = None

    def act(self, state):
        logits, _ = self.net(state.unsqueeze(0))
        dist = Categorical(logits=logits)
        action = dist.sample()
        self.log_prob = dist.log_prob(action)
        return action.item()

    def remember(self, state, reward):
        self.memory.append((state, self.log_prob, reward))

    def learn(self, batch_size=4):
        batch = random.sample(self.memory, batch_size)
        states = torch.stack([s for s, _, _ in batch])
        log_probs = torch.cat([lp for _, lp, _ in batch])
        rewards = torch.tensor([r for _, _, r in batch])
        _, values = self.net(states)
        advantage = rewards - values
        loss = -(log_probs * advantage.detach()).mean() + advantage.pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


random.seed(0)
torch.manual_seed(0)
agent = Agent()
for step in range(12):
    state = torch.randn(4)
    agent.act(state)
    agent.remember(state, reward=1.0)
    if step >= 3:
        agent.learn()
