import copy
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, n_actions)

    def forward(self, x):
        return self.head(self.body(x))


class ReplayBuffer:
    def __init__(self, capacity):
        self.buffer = deque(maxlen=capacity)

    def push(self, *transition):
        self.buffer.append(transition)

    def sample(self, batch_size):
        batch = random.sample(self.buffer, batch_size)
        obs, act, rew, nxt, done = zip(*batch)
        return (torch.stack(obs), torch.tensor(act), torch.tensor(rew, dtype=torch.float32),
                torch.stack(nxt), torch.tensor(done, dtype=torch.float32))

    def __len__(self):
        return len(self.buffer)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, cfg):
        self.cfg = cfg
        self.n_actions = n_actions
        self.policy_net = QNetwork(obs_dim, n_actions)
        self.target_net = copy.deepcopy(self.policy_net)
        self.target_net.eval()
        self.optimizer = torch.optim.Adam(self.policy_net.parameters(), lr=cfg["lr"])
        self.updates = 0

    def act(self, obs, epsilon):
        if random.random() < epsilon:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return int(self.policy_net(obs.unsqueeze(0)).argmax(dim=1).item())

    def compute_targets(self, rew, nxt, done):
        with torch.no_grad():
            if self.cfg["double_dqn"]:
                next_actions = self.policy_net(nxt).argmax(dim=1, keepdim=True)
                next_q = self.target_net(nxt).gather(1, next_actions).squeeze(1)
            else:
                next_q = self.target_net(nxt).max(dim=1).values
            return rew + self.cfg["gamma"] * next_q * (1.0 - done)

    def update(self, buffer):
        obs, act, rew, nxt, done = buffer.sample(self.cfg["batch_size"])
        q = self.policy_net(obs).gather(1, act.unsqueeze(1)).squeeze(1)
        target = self.compute_targets(rew, nxt, done)
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.policy_net.parameters(), self.cfg["max_grad_norm"])
        self.optimizer.step()
        self.updates += 1
        if self.updates % self.cfg["target_update"] == 0:
            self.target_net.load_state_dict(self.policy_net.state_dict())
        return loss.item()
