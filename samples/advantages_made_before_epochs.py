"""A PPO-style update computes the advantages once from the critic's values, before its
mini-epochs, without detaching them: the first mini-epoch's backward frees the critic graph the
advantages hang on, and the second one fails."""
import torch
from torch import nn

torch.manual_seed(0)
actor, critic = nn.Linear(4, 2), nn.Linear(4, 1)
optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=1e-3)
states, actions, returns = torch.randn(32, 4), torch.randint(0, 2, (32,)), torch.randn(32, 1)

values = critic(states)
advantages = returns - values
advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
for epoch in range(3):
    log_probs = torch.log_softmax(actor(states), -1).gather(1, actions[:, None])
    loss = -(log_probs * advantages).mean() + (critic(states) - returns).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
