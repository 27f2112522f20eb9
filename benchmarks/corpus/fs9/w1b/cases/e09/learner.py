import torch
from torch.distributions import Categorical

from modules import CentralVCritic, PPOAgent


class MAPPOLearner:
    def __init__(self, args):
        self.args = args
        self.agent = PPOAgent(args["obs_dim"], args)
        self.critic = CentralVCritic(args)
        self.params = list(self.agent.parameters()) + list(self.critic.parameters())
        self.optimiser = torch.optim.Adam(self.params, lr=args["lr"])

    def select_actions(self, obs):
        with torch.no_grad():
            logits = self.agent(obs)
            dist = Categorical(logits=logits)
            actions = dist.sample()
            return actions, dist.log_prob(actions)

    def _returns(self, rewards, values, terminated):
        gamma, lam = self.args["gamma"], self.args["gae_lambda"]
        T = rewards.shape[1]
        adv = torch.zeros_like(rewards)
        last = torch.zeros_like(rewards[:, 0])
        for t in reversed(range(T)):
            next_v = values[:, t + 1] if t + 1 < T else torch.zeros_like(values[:, t])
            mask = 1.0 - terminated[:, t]
            delta = rewards[:, t] + gamma * next_v * mask - values[:, t]
            last = delta + gamma * lam * mask * last
            adv[:, t] = last
        return adv + values

    def train(self, batch):
        obs, state = batch["obs"], batch["state"]
        actions, old_log_probs = batch["actions"], batch["log_probs"]
        rewards = batch["reward"].unsqueeze(-1).expand_as(old_log_probs)
        terminated = batch["terminated"].unsqueeze(-1).expand_as(old_log_probs)

        values = self.critic(state)
        with torch.no_grad():
            targets = self._returns(rewards, values, terminated)
        advantages = targets - values
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-6)

        stats = []
        for _ in range(self.args["mini_epochs"]):
            logits = self.agent(obs)
            dist = Categorical(logits=logits)
            log_probs = dist.log_prob(actions)
            ratios = torch.exp(log_probs - old_log_probs)
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.args["eps_clip"], 1 + self.args["eps_clip"]) * advantages
            pg_loss = -torch.min(surr1, surr2).mean() - self.args["entropy_coef"] * dist.entropy().mean()

            v = self.critic(state)
            critic_loss = ((targets - v) ** 2).mean()
            loss = pg_loss + self.args["critic_coef"] * critic_loss

            self.optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.params, 10.0)
            self.optimiser.step()
            stats.append(loss.item())
        return sum(stats) / len(stats)
