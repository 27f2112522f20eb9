import torch
import torch.nn as nn


class RolloutStorage:
    def __init__(self, num_steps, num_envs, obs_dim, act_dim):
        self.obs = torch.zeros(num_steps + 1, num_envs, obs_dim)
        self.actions = torch.zeros(num_steps, num_envs, act_dim)
        self.log_probs = torch.zeros(num_steps, num_envs)
        self.values = torch.zeros(num_steps + 1, num_envs)
        self.rewards = torch.zeros(num_steps, num_envs)
        self.masks = torch.ones(num_steps + 1, num_envs)
        self.returns = torch.zeros(num_steps + 1, num_envs)
        self.num_steps = num_steps
        self.step = 0

    def insert(self, obs, action, log_prob, value, reward, mask):
        self.obs[self.step + 1].copy_(obs)
        self.actions[self.step].copy_(action)
        self.log_probs[self.step].copy_(log_prob)
        self.values[self.step].copy_(value)
        self.rewards[self.step].copy_(reward)
        self.masks[self.step + 1].copy_(mask)
        self.step = (self.step + 1) % self.num_steps

    def after_update(self):
        self.obs[0].copy_(self.obs[-1])
        self.masks[0].copy_(self.masks[-1])

    def compute_returns(self, next_value, gamma, gae_lambda):
        self.values[-1] = next_value
        gae = 0
        for t in reversed(range(self.num_steps)):
            delta = (self.rewards[t] + gamma * self.values[t + 1] * self.masks[t + 1]
                     - self.values[t])
            gae = delta + gamma * gae_lambda * self.masks[t + 1] * gae
            self.returns[t] = gae + self.values[t]

    def minibatches(self, advantages, num_mini_batch):
        n = self.num_steps * self.obs.size(1)
        flat = lambda t: t.reshape(n, *t.shape[2:])
        perm = torch.randperm(n)
        for idx in perm.chunk(num_mini_batch):
            yield (flat(self.obs[:-1])[idx], flat(self.actions)[idx],
                   flat(self.values[:-1])[idx], flat(self.returns[:-1])[idx],
                   flat(self.log_probs)[idx], flat(advantages)[idx])


class PPO:
    def __init__(self, actor_critic, clip_param=0.2, ppo_epoch=4, num_mini_batch=4,
                 value_loss_coef=0.5, entropy_coef=0.01, lr=3e-4, max_grad_norm=0.5):
        self.actor_critic = actor_critic
        self.clip_param = clip_param
        self.ppo_epoch = ppo_epoch
        self.num_mini_batch = num_mini_batch
        self.value_loss_coef = value_loss_coef
        self.entropy_coef = entropy_coef
        self.max_grad_norm = max_grad_norm
        self.optimizer = torch.optim.Adam(actor_critic.parameters(), lr=lr, eps=1e-5)

    def update(self, rollouts):
        advantages = rollouts.returns[:-1] - rollouts.values[:-1]
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-5)
        stats = []
        for _ in range(self.ppo_epoch):
            for obs, actions, old_values, returns, old_log_probs, adv in \
                    rollouts.minibatches(advantages, self.num_mini_batch):
                log_probs, entropy, values = self.actor_critic.evaluate_actions(obs, actions)
                ratio = torch.exp(log_probs - old_log_probs)
                surr1 = ratio * adv
                surr2 = torch.clamp(ratio, 1.0 - self.clip_param, 1.0 + self.clip_param) * adv
                action_loss = -torch.min(surr1, surr2).mean()

                values_clipped = old_values + (values - old_values).clamp(-self.clip_param, self.clip_param)
                value_loss = 0.5 * torch.max((values - returns).pow(2),
                                             (values_clipped - returns).pow(2)).mean()

                self.optimizer.zero_grad()
                loss = value_loss * self.value_loss_coef + action_loss - entropy.mean() * self.entropy_coef
                loss.backward()
                nn.utils.clip_grad_norm_(self.actor_critic.parameters(), self.max_grad_norm)
                self.optimizer.step()
                stats.append((value_loss.item(), action_loss.item(), entropy.mean().item()))
        n = len(stats)
        return tuple(sum(s[i] for s in stats) / n for i in range(3))
