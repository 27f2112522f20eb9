import torch
from torch import autograd


def gradient_penalty(critic, real, fake, lambda_gp=10.0):
    alpha = torch.rand(real.size(0), 1, device=real.device).expand_as(real)
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interpolates)
    gradients = autograd.grad(
        outputs=scores,
        inputs=interpolates,
        grad_outputs=torch.ones_like(scores),
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * lambda_gp


def critic_loss(critic, real, fake, lambda_gp):
    d_real = critic(real).mean()
    d_fake = critic(fake).mean()
    gp = gradient_penalty(critic, real, fake, lambda_gp)
    return d_fake - d_real + gp, d_real - d_fake, gp


def generator_loss(critic, fake):
    return -critic(fake).mean()
