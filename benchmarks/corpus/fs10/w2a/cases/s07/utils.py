import math

import torch


def sine_dataset(n, seq_len, generator):
    t = torch.linspace(0, 2 * math.pi, seq_len)
    freq = torch.rand(n, 1, generator=generator) * 2 + 1
    phase = torch.rand(n, 1, generator=generator) * 2 * math.pi
    return torch.sin(freq * t + phase).unsqueeze(1)


def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1, 1)
    interpolates = (alpha * real_samples + (1 - alpha) * fake_samples).requires_grad_(True)
    d_interpolates = D(interpolates)
    gradients = torch.autograd.grad(
        outputs=d_interpolates,
        inputs=interpolates,
        grad_outputs=torch.ones_like(d_interpolates),
        create_graph=True,
        retain_graph=True,
    )[0]
    gradients = gradients.view(gradients.size(0), -1)
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()
