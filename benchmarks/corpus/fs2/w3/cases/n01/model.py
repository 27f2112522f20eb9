import torch
import torch.nn as nn
from torch.distributions import Normal


def init_layer(layer, gain=1.0):
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.actor = nn.Sequential(
            init_layer(nn.Linear(obs_dim, hidden), 2 ** 0.5), nn.Tanh(),
            init_layer(nn.Linear(hidden, hidden), 2 ** 0.5), nn.Tanh(),
            init_layer(nn.Linear(hidden, act_dim), 0.01),
        )
        self.critic = nn.Sequential(
            init_layer(nn.Linear(obs_dim, hidden), 2 ** 0.5), nn.Tanh(),
            init_layer(nn.Linear(hidden, hidden), 2 ** 0.5), nn.Tanh(),
            init_layer(nn.Linear(hidden, 1), 1.0),
        )
        self.log_std = nn.Parameter(torch.full((act_dim,), -0.5))

    def dist(self, obs):
        mean = self.actor(obs)
        return Normal(mean, self.log_std.exp().expand_as(mean))

    def get_value(self, obs):
        return self.critic(obs).squeeze(-1)

    @torch.no_grad()
    def act(self, obs):
        d = self.dist(obs)
        action = d.sample()
        return action, d.log_prob(action).sum(-1), self.get_value(obs)

    def evaluate_actions(self, obs, actions):
        d = self.dist(obs)
        return d.log_prob(actions).sum(-1), d.entropy().sum(-1), self.get_value(obs)
