import copy

import torch
import torch.nn.functional as F

from networks import Actor, Critic


class DDPGAgent:
    def __init__(self, obs_dim, act_dim, cfg):
        self.cfg = cfg
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(obs_dim, act_dim)
        self.actor_targ = copy.deepcopy(self.actor)
        self.critic_targ = copy.deepcopy(self.critic)
        for p in list(self.actor_targ.parameters()) + list(self.critic_targ.parameters()):
            p.requires_grad_(False)
        self.pi_opt = torch.optim.Adam(self.actor.parameters(), lr=cfg["pi_lr"])
        self.q_opt = torch.optim.Adam(self.critic.parameters(), lr=cfg["q_lr"])

    def critic_loss(self, batch):
        o, a, r, o2, d = batch["obs"], batch["act"], batch["rew"], batch["obs2"], batch["done"]
        q = self.critic(o, a)
        with torch.no_grad():
            q_pi_targ = self.critic_targ(o2, self.actor_targ(o2))
            backup = r + self.cfg["gamma"] * (1 - d) * q_pi_targ
        return F.mse_loss(q, backup)

    def actor_loss(self, batch):
        o = batch["obs"]
        return -self.critic(o, self.actor(o)).mean()

    def update(self, batch):
        self.q_opt.zero_grad()
        loss_q = self.critic_loss(batch)
        loss_q.backward()
        self.q_opt.step()

        for p in self.critic.parameters():
            p.requires_grad_(False)
        self.pi_opt.zero_grad()
        loss_pi = self.actor_loss(batch)
        loss_pi.backward()
        self.pi_opt.step()
        for p in self.critic.parameters():
            p.requires_grad_(True)

        with torch.no_grad():
            polyak = self.cfg["polyak"]
            for net, targ in ((self.actor, self.actor_targ), (self.critic, self.critic_targ)):
                for p, p_targ in zip(net.parameters(), targ.parameters()):
                    p_targ.mul_(polyak)
                    p_targ.add_((1 - polyak) * p)
        return loss_q.item(), loss_pi.item()
