import torch
from torch import autograd


def gradient_penalty(critic, real, fake, lambda_gp=10.0):
    alpha = torch.rand(real.size(0), 1, device=real.device).expand_as(real)
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interpolates)
    grads = autograd.grad(
        outputs=scores,
        inputs=interpolates,
        grad_outputs=torch.ones_like(scores),
        create_graph=True,
        retain_graph=True,
    )[0]
    grads = grads.view(grads.size(0), -1)
    return lambda_gp * ((grads.norm(2, dim=1) - 1) ** 2).mean()


def critic_loss(real_scores, fake_scores):
    return fake_scores.mean() - real_scores.mean()


def generator_loss(fake_scores):
    return -fake_scores.mean()
