import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.actor = nn.Linear(hidden, n_actions)
        self.critic_ext = nn.Linear(hidden, 1)
        self.critic_int = nn.Linear(hidden, 1)

    def forward(self, state):
        x = self.feature(state)
        return self.actor(x), self.critic_ext(x), self.critic_int(x)


class RNDModel(nn.Module):
    def __init__(self, obs_dim, out_dim=32):
        super().__init__()
        self.predictor = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, out_dim))
        self.target = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, out_dim))
        for p in self.target.parameters():
            p.requires_grad = False

    def forward(self, next_obs):
        return self.predictor(next_obs), self.target(next_obs)
