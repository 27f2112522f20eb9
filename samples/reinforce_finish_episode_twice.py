"""REINFORCE: the episode's log-probabilities are kept in the policy; finish_episode() builds the
loss from them and calls backward. The loop calls it once per step where the episode ends, and
once more after the loop: the second call backpropagates through the same, already freed graph.
The backward() line is inside the helper; the line to change is the loop's second call."""
import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
        self.log_probs = []
        self.rewards = []

    def act(self, state):
        probs = torch.softmax(self.net(state), dim=-1)
        action = torch.multinomial(probs, 1).item()
        self.log_probs.append(torch.log(probs[action]))
        return action


def finish_episode(policy, optimizer):
    returns = torch.tensor(policy.rewards)
    loss = -(torch.stack(policy.log_probs) * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


torch.manual_seed(0)
policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
for t in range(5):
    policy.act(torch.randn(4))
    policy.rewards.append(1.0)
    if t == 4:
        finish_episode(policy, optimizer)
finish_episode(policy, optimizer)
