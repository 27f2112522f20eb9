"""WGAN-GP's gradient penalty: the interpolate of real and (detached) fake samples gets
requires_grad so that autograd.grad can take the critic's gradient with respect to it. Correct:
no finding (issue 16 section 7: it was once called a requires_grad set on a detached result)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
generator = nn.Sequential(nn.Linear(2, 4))
opt = torch.optim.Adam(critic.parameters(), lr=1e-3)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    grads = torch.autograd.grad(critic(mixed).sum(), mixed, create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


for step in range(3):
    real = torch.randn(8, 4)
    fake = generator(torch.randn(8, 2)).detach()
    loss = critic(fake).mean() - critic(real).mean() + 10 * gradient_penalty(critic, real, fake)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: critic loss {loss.item():.4f}")
