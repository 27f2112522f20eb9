import torch
import torch.nn.functional as F


class DDPG:
    def __init__(self, models, cfg):
        self.device = torch.device(cfg["device"])
        self.critic = models["critic"].to(self.device)
        self.target_critic = models["critic"].to(self.device)
        self.actor = models["actor"].to(self.device)
        self.target_actor = models["actor"].to(self.device)
        # copy parameters to the target networks
        for target_param, param in zip(self.target_critic.parameters(), self.critic.parameters()):
            target_param.data.copy_(param.data)
        for target_param, param in zip(self.target_actor.parameters(), self.actor.parameters()):
            target_param.data.copy_(param.data)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=cfg["critic_lr"])
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=cfg["actor_lr"])
        self.gamma, self.tau = cfg["gamma"], cfg["tau"]

    def update(self, batch):
        state, action, reward, next_state, done = batch
        policy_loss = -self.critic(state, self.actor(state)).mean()
        next_action = self.target_actor(next_state)
        target_value = self.target_critic(next_state, next_action.detach())
        expected_value = reward + (1.0 - done) * self.gamma * target_value
        value = self.critic(state, action)
        value_loss = F.mse_loss(value, expected_value.detach())

        self.actor_optimizer.zero_grad()
        policy_loss.backward()
        self.actor_optimizer.step()
        self.critic_optimizer.zero_grad()
        value_loss.backward()
        self.critic_optimizer.step()

        # soft update of the target networks
        for target_param, param in zip(self.target_critic.parameters(), self.critic.parameters()):
            target_param.data.copy_(target_param.data * (1.0 - self.tau) + param.data * self.tau)
        for target_param, param in zip(self.target_actor.parameters(), self.actor.parameters()):
            target_param.data.copy_(target_param.data * (1.0 - self.tau) + param.data * self.tau)
        return value_loss.item(), policy_loss.item()
