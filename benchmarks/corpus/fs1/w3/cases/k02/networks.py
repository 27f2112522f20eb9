import torch
import torch.nn as nn


def mlp(sizes, activation=nn.ReLU, output_activation=nn.Identity):
    layers = []
    for j in range(len(sizes) - 1):
        act = activation if j < len(sizes) - 2 else output_activation
        layers += [nn.Linear(sizes[j], sizes[j + 1]), act()]
    return nn.Sequential(*layers)


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=(64, 64), act_limit=1.0):
        super().__init__()
        self.pi = mlp([obs_dim, *hidden, act_dim], output_activation=nn.Tanh)
        self.act_limit = act_limit

    def forward(self, obs):
        return self.act_limit * self.pi(obs)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=(64, 64)):
        super().__init__()
        self.q = mlp([obs_dim + act_dim, *hidden, 1])

    def forward(self, obs, act):
        return self.q(torch.cat([obs, act], dim=-1)).squeeze(-1)


class PointMass:
    """Toy continuous-control task: push a point towards the origin."""

    def __init__(self, dim=3, horizon=50):
        self.dim, self.horizon = dim, horizon

    def reset(self):
        self.t = 0
        self.state = torch.randn(self.dim)
        return self.state.clone()

    def step(self, action):
        self.t += 1
        self.state = self.state + 0.1 * action
        reward = -self.state.pow(2).sum().item()
        done = self.t >= self.horizon
        return self.state.clone(), reward, done
