import copy

import torch
import torch.nn.functional as F
from torch import nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(inplace=True),
                                 nn.Linear(hidden, hidden), nn.ReLU(inplace=True),
                                 nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return self.net(obs)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, cfg):
        self.cfg = cfg
        self.q = QNetwork(obs_dim, n_actions)
        self.target_q = copy.deepcopy(self.q)
        self.target_q.requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.q.parameters(), lr=cfg["lr"])
        self.updates = 0

    def compute_targets(self, rewards, next_obs, dones):
        with torch.no_grad():
            next_q = self.target_q(next_obs)
            if self.cfg["double_q"]:
                best = self.q(next_obs).argmax(dim=1, keepdim=True)
                next_v = next_q.gather(1, best).squeeze(1)
            else:
                next_v = next_q.max(dim=1).values
            next_v.mul_(1.0 - dones)
            return rewards + self.cfg["gamma"] * next_v

    def update(self, batch):
        obs, actions, rewards, next_obs, dones = batch
        q_values = self.q(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
        targets = self.compute_targets(rewards, next_obs, dones)
        loss = F.smooth_l1_loss(q_values, targets)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.q.parameters(), 10.0)
        self.optimizer.step()
        self.updates += 1
        if self.updates % self.cfg["target_sync"] == 0:
            self.sync_target()
        return loss.item()

    def sync_target(self):
        tau = self.cfg["tau"]
        with torch.no_grad():
            for tp, p in zip(self.target_q.parameters(), self.q.parameters()):
                tp.lerp_(p, tau)
