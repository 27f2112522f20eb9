import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, act_dim), nn.Tanh())

    def forward(self, o):
        return self.net(o)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, o, u):
        return self.net(torch.cat([o, u], dim=1))


class MADDPG:
    def __init__(self, obs_dim, act_dim, gamma=0.95):
        self.actor, self.critic = Actor(obs_dim, act_dim), Critic(obs_dim, act_dim)
        self.actor_target, self.critic_target = Actor(obs_dim, act_dim), Critic(obs_dim, act_dim)
        self.actor_target.load_state_dict(self.actor.state_dict())
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-4)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma = gamma

    def train(self, o, u, r, o_next):
        with torch.no_grad():
            q_next = self.critic_target(o_next, self.actor_target(o_next))
            target_q = r + self.gamma * q_next
        q_value = self.critic(o, u)
        critic_loss = F.mse_loss(q_value, target_q)

        actor_loss = -self.critic(o, self.actor(o)).mean()

        # update the critic first, as in the paper, then the actor
        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()
        return critic_loss.item(), actor_loss.item()
