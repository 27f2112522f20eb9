from dataclasses import dataclass

import torch
from torch.distributions import Categorical


@dataclass
class PPOConfig:
    rollout_len: int = 32
    ppo_epochs: int = 2
    num_minibatches: int = 4
    gamma: float = 0.99
    lam: float = 0.95
    clip: float = 0.2
    vf_coef: float = 0.5
    ent_coef: float = 0.01
    lr: float = 3e-4


class RolloutBuffer:
    def __init__(self):
        self.obs, self.actions, self.logprobs = [], [], []
        self.values, self.rewards, self.dones = [], [], []

    def add(self, obs, action, logprob, value, reward, done):
        self.obs.append(obs)
        self.actions.append(action)
        self.logprobs.append(logprob)
        self.values.append(value)
        self.rewards.append(reward)
        self.dones.append(done)

    def stacked(self):
        return {k: torch.stack(getattr(self, k)) for k in
                ("obs", "actions", "logprobs", "values", "rewards", "dones")}


class PPOTrainer:
    def __init__(self, config, model, env, accelerator):
        self.config = config
        self.accelerator = accelerator
        optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
        self.model, self.optimizer = accelerator.prepare(model, optimizer)
        self.env = env
        self.obs = env.reset()

    def collect_rollout(self):
        buffer = RolloutBuffer()
        obs = self.obs
        for _ in range(self.config.rollout_len):
            logits, value = self.model(obs)
            dist = Categorical(logits=logits)
            action = dist.sample()
            next_obs, reward, done = self.env.step(action)
            buffer.add(obs, action, dist.log_prob(action), value, reward, done)
            obs = next_obs
        self.obs = obs
        return buffer.stacked()

    def compute_gae(self, batch):
        cfg = self.config
        values, rewards, dones = batch["values"], batch["rewards"], batch["dones"]
        adv = torch.zeros_like(rewards)
        last = torch.zeros_like(rewards[0])
        for t in reversed(range(rewards.shape[0])):
            nxt = values[t + 1] if t + 1 < rewards.shape[0] else values[t]
            delta = rewards[t] + cfg.gamma * nxt * (1 - dones[t]) - values[t]
            last = delta + cfg.gamma * cfg.lam * (1 - dones[t]) * last
            adv[t] = last
        batch["advantages"] = adv
        batch["returns"] = adv + values
        return batch

    def step(self):
        cfg = self.config
        batch = self.compute_gae(self.collect_rollout())
        flat = {k: v.flatten(0, 1) for k, v in batch.items()}
        n = flat["actions"].shape[0]
        mb_size = n // cfg.num_minibatches
        stats = []
        for _ in range(cfg.ppo_epochs):
            perm = torch.randperm(n)
            for start in range(0, n, mb_size):
                idx = perm[start:start + mb_size]
                logits, value = self.model(flat["obs"][idx])
                dist = Categorical(logits=logits)
                logprob = dist.log_prob(flat["actions"][idx])
                adv = flat["advantages"][idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = torch.exp(logprob - flat["logprobs"][idx])
                pg = -torch.min(ratio * adv,
                                ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * adv).mean()
                vf = (value - flat["returns"][idx]).pow(2).mean()
                loss = pg + cfg.vf_coef * vf - cfg.ent_coef * dist.entropy().mean()
                self.optimizer.zero_grad()
                self.accelerator.backward(loss)
                self.optimizer.step()
                stats.append(loss.item())
        return sum(stats) / len(stats), flat["rewards"].mean().item()
