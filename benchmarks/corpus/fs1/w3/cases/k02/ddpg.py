import copy

import torch
import torch.nn.functional as F

from networks import Actor, Critic


class ReplayBuffer:
    def __init__(self, obs_dim, act_dim, size):
        self.obs = torch.zeros(size, obs_dim)
        self.next_obs = torch.zeros(size, obs_dim)
        self.act = torch.zeros(size, act_dim)
        self.rew = torch.zeros(size)
        self.done = torch.zeros(size)
        self.ptr, self.size, self.max_size = 0, 0, size

    def store(self, obs, act, rew, next_obs, done):
        i = self.ptr
        self.obs[i], self.act[i], self.rew[i] = obs, act, rew
        self.next_obs[i], self.done[i] = next_obs, float(done)
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,))
        return self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx], self.done[idx]


class DDPGAgent:
    def __init__(self, obs_dim, act_dim, gamma=0.99, tau=0.005, actor_lr=1e-3, critic_lr=1e-3):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(obs_dim, act_dim)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_target = copy.deepcopy(self.critic)
        for p in list(self.actor_target.parameters()) + list(self.critic_target.parameters()):
            p.requires_grad = False
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=actor_lr)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=critic_lr)
        self.gamma, self.tau = gamma, tau

    def act(self, obs, noise_scale=0.1):
        with torch.no_grad():
            a = self.actor(obs)
        return (a + noise_scale * torch.randn_like(a)).clamp(-1.0, 1.0)

    def update(self, batch):
        obs, act, rew, next_obs, done = batch

        q = self.critic(obs, act)
        next_q = self.critic_target(next_obs, self.actor_target(next_obs))
        target = rew + self.gamma * (1 - done) * next_q
        critic_loss = F.mse_loss(q, target.detach())
        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        actor_loss = -self.critic(obs, self.actor(obs)).mean()
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self.soft_update(self.actor, self.actor_target)
        self.soft_update(self.critic, self.critic_target)
        return critic_loss.item(), actor_loss.item()

    @torch.no_grad()
    def soft_update(self, source, target):
        for p, p_targ in zip(source.parameters(), target.parameters()):
            p_targ.mul_(1 - self.tau)
            p_targ.add_(self.tau * p)
