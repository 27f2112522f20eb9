import torch
import torch.nn.functional as F

from models import Actor, Critic


def tour_length(coords, tour):
    ordered = coords.gather(1, tour.unsqueeze(-1).expand(-1, -1, 2))
    rolled = torch.roll(ordered, -1, dims=1)
    return (ordered - rolled).norm(dim=-1).sum(1)


class Agent:
    def __init__(self, cfg):
        self.cfg = cfg
        self.actor = Actor(cfg["hidden"])
        self.critic = Critic(cfg["hidden"])
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=cfg["lr_actor"])
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=cfg["lr_critic"])

    def compute_losses(self, coords):
        tour, log_prob = self.actor(coords)
        reward = tour_length(coords, tour)
        critic_pred = self.critic(coords)
        advantage = reward - critic_pred
        actor_loss = (advantage * log_prob).mean()
        critic_loss = F.mse_loss(critic_pred, reward)
        return actor_loss, critic_loss, reward

    def update(self, coords):
        actor_loss, critic_loss, reward = self.compute_losses(coords)
        self.actor_opt.zero_grad()
        self.critic_opt.zero_grad()
        (actor_loss + critic_loss).backward()
        torch.nn.utils.clip_grad_norm_(self.actor.parameters(), self.cfg["max_grad_norm"])
        torch.nn.utils.clip_grad_norm_(self.critic.parameters(), self.cfg["max_grad_norm"])
        self.actor_opt.step()
        self.critic_opt.step()
        return actor_loss.item(), critic_loss.item(), reward.mean().item()
