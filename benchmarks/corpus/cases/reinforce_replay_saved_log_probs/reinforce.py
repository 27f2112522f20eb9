import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
random.seed(0)
GAMMA = 0.99
BATCH = 16


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 32)
        self.affine2 = nn.Linear(32, 2)
        self.memory = []  # (log_prob, return) pairs kept across episodes

    def forward(self, x):
        return F.softmax(self.affine2(F.relu(self.affine1(x))), dim=-1)


def run_episode(policy, length=10):
    state = torch.randn(4)
    log_probs, rewards = [], []
    for _ in range(length):
        m = Categorical(policy(state))
        action = m.sample()
        log_probs.append(m.log_prob(action))
        rewards.append(1.0 if action.item() == int(state[0] > 0) else 0.0)
        state = state + 0.1 * torch.randn(4)
    return log_probs, rewards


def finish_episode(policy, optimizer, log_probs, rewards):
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + GAMMA * R
        returns.insert(0, R)
    for log_prob, ret in zip(log_probs, returns):
        policy.memory.append((log_prob, ret))
    # sample stored experience to decorrelate the update
    batch = random.sample(policy.memory, min(BATCH, len(policy.memory)))
    rets = torch.tensor([ret for _, ret in batch])
    rets = (rets - rets.mean()) / (rets.std() + 1e-8)
    policy_loss = torch.stack([-lp * r for (lp, _), r in zip(batch, rets)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()
    return sum(rewards)


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
for i_episode in range(5):
    log_probs, rewards = run_episode(policy)
    total = finish_episode(policy, optimizer, log_probs, rewards)
    print(f"episode {i_episode} reward {total:.1f} memory {len(policy.memory)}")
