import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

S_INFO, S_LEN, A_DIM = 6, 8, 6


class ActorNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 16, 4)
        self.fc_scalar = nn.Linear(2, 16)
        self.fc = nn.Linear(16 * (S_LEN - 3) * 2 + 16 * 2, 64)
        self.out = nn.Linear(64, A_DIM)

    def features(self, s):
        a = F.relu(self.fc_scalar(s[:, 0:2, -1]))
        b = F.relu(self.conv(s[:, 2:3, :])).flatten(1)
        c = F.relu(self.conv(s[:, 3:4, :])).flatten(1)
        d = F.relu(self.fc_scalar(s[:, 4:6, -1]))
        return torch.cat([a, b, c, d], dim=1)

    def forward(self, s):
        return F.softmax(self.out(F.relu(self.fc(self.features(s)))), dim=-1)


class CriticNetwork(ActorNetwork):
    def __init__(self):
        super().__init__()
        self.out = nn.Linear(64, 1)

    def forward(self, s):
        return self.out(F.relu(self.fc(self.features(s))))


CRITIC_LOSSES = {
    "mse": lambda v, target: F.mse_loss(v, target),
    "huber": lambda v, target: F.huber_loss(v, target, delta=1.0),
}


class A3C:
    def __init__(self, cfg):
        self.cfg = cfg
        self.actor = ActorNetwork()
        self.critic = CriticNetwork()
        self.actor_opt = torch.optim.RMSprop(self.actor.parameters(), lr=cfg["actor_lr"])
        self.critic_opt = torch.optim.RMSprop(self.critic.parameters(), lr=cfg["critic_lr"])
        self.critic_loss_fn = CRITIC_LOSSES[cfg["critic_loss"]]

    def discounted_returns(self, rewards, terminal, bootstrap):
        R = np.zeros(len(rewards))
        running = 0.0 if terminal else bootstrap
        for t in reversed(range(len(rewards))):
            running = rewards[t] + self.cfg["gamma"] * running
            R[t] = running
        return torch.from_numpy(R).unsqueeze(1)

    def get_network_gradient(self, s_batch, a_batch, r_batch, terminal):
        s = torch.from_numpy(np.stack(s_batch)).float()
        a = torch.tensor(a_batch)
        with torch.no_grad():
            bootstrap = self.critic(s[-1:]).item()
        R = self.discounted_returns(r_batch, terminal, bootstrap)

        v = self.critic(s)
        advantage = (R - v).detach()
        probs = self.actor(s)
        log_prob = torch.log(probs.gather(1, a.unsqueeze(1)) + 1e-6)
        entropy = -(probs * torch.log(probs + 1e-6)).sum(1, keepdim=True)
        actor_loss = -(log_prob * advantage).sum() - self.cfg["entropy_weight"] * entropy.sum()

        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        critic_loss = self.critic_loss_fn(v, R)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()
        return actor_loss.item(), critic_loss.item()
