"""A policy-gradient loss summed from `.item()` values and rebuilt with
torch.tensor(..., requires_grad=True): backward runs, and no parameter gets a gradient."""
import torch
import torch.nn as nn

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)

for episode in range(3):
    total = 0.0
    for t in range(5):
        state = torch.randn(4)
        dist = torch.distributions.Categorical(logits=policy(state))
        action = dist.sample()
        reward = float(action) - 0.5
        log_prob = dist.log_prob(action)
        total -= log_prob.item() * reward
    loss = torch.tensor(total, requires_grad=True)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
print("grad of the first layer:", policy[0].weight.grad)
