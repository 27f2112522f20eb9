import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1), nn.Tanh())

    def forward(self, s):
        return self.net(s)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], -1))


actor, critic = Actor(), Critic()
target_actor, target_critic = copy.deepcopy(actor), copy.deepcopy(critic)
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)


def soft_update(target, source, tau=0.01):
    for tp, sp in zip(target.parameters(), source.parameters()):
        tp.data.copy_(tp.data * (1 - tau) + sp.data * tau)


for step in range(5):
    s, a, r, s2 = torch.randn(16, 3), torch.rand(16, 1) * 2 - 1, torch.randn(16, 1), torch.randn(16, 3)
    target_q = target_critic(s2, target_actor(s2))
    y = r + 0.99 * target_q.detach()
    critic_loss = F.mse_loss(critic(s, a), y)
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()
    actor_loss = -critic(s, actor(s)).mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
    soft_update(target_actor, actor)
    soft_update(target_critic, critic)
print("done")
