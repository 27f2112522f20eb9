import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.actor(h), self.critic(h).squeeze(-1)


def rollout(model, n_steps=16, obs_dim=8):
    log_probs, values, rewards, entropies = [], [], [], []
    obs = torch.randn(obs_dim)
    for _ in range(n_steps):
        logits, value = model(obs)
        dist = Categorical(logits=logits)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        values.append(value)
        rewards.append(float(action.item() == 1))
        obs = torch.randn(obs_dim)
    return torch.stack(log_probs), torch.stack(values), rewards, torch.stack(entropies)


def discounted_returns(rewards, gamma=0.95):
    out, R = [], 0.0
    for r in reversed(rewards):
        R = r + gamma * R
        out.append(R)
    return torch.tensor(out[::-1])


def main():
    torch.manual_seed(0)
    model = ActorCritic()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for update in range(6):
        log_probs, values, rewards, entropies = rollout(model)
        returns = discounted_returns(rewards)
        advantage = returns - values.detach()
        actor_loss = -(log_probs * advantage).mean()
        critic_loss = F.smooth_l1_loss(values, returns)
        loss = actor_loss + 0.5 * critic_loss - 0.01 * entropies.mean()
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        print(f"update {update} reward {sum(rewards):.0f} actor {actor_loss.item():.4f} critic {critic_loss.item():.4f}")


if __name__ == "__main__":
    main()
