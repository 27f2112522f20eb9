"""A critic takes several steps per batch; its gradients are reset once, before that loop, so each
step after the first applies the sum of its own and all earlier gradients."""
import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)


def critic_round(real, fake, n_steps=3):
    critic_opt.zero_grad()
    for _ in range(n_steps):
        loss = critic(fake).mean() - critic(real).mean()
        loss.backward()
        critic_opt.step()
    return loss.item()


for batch in range(2):
    print(critic_round(torch.randn(8, 4) + 1, torch.randn(8, 4)))
