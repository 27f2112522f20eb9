import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 32)
        self.fc2 = nn.Linear(32, n_actions)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, obs):
        return F.softmax(self.fc2(F.relu(self.fc1(obs))), dim=-1)


def select_action(policy, obs):
    dist = Categorical(policy(obs))
    action = dist.sample()
    policy.saved_log_probs.append(dist.log_prob(action))
    return action.item()


def finish_episode(policy, optimizer, gamma=0.99):
    returns, R = [], 0.0
    for r in reversed(policy.rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = torch.stack([-lp * G for lp, G in zip(policy.saved_log_probs, returns)]).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    del policy.saved_log_probs[:]
    del policy.rewards[:]
    return loss.item()


def main():
    torch.manual_seed(0)
    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for episode in range(5):
        obs = torch.randn(6)
        for t in range(12):
            action = select_action(policy, obs)
            reward = 1.0 if action == 0 else -0.1
            policy.rewards.append(reward)
            obs = torch.randn(6) + 0.1 * action
        ep_return = sum(policy.rewards)
        loss = finish_episode(policy, optimizer)
        print(f"episode {episode} return {ep_return:.2f} loss {loss:.4f}")


if __name__ == "__main__":
    main()
