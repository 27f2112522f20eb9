import torch


def generate_noise(size, num_samp=1):
    return torch.randn(num_samp, *size)


def calc_gradient_penalty(netD, real, fake, lam):
    alpha = torch.rand(1, 1)
    alpha = alpha.expand(real.size())
    interpolates = alpha * real + (1 - alpha) * fake
    interpolates = interpolates.detach().requires_grad_(True)
    disc = netD(interpolates)
    grads = torch.autograd.grad(outputs=disc, inputs=interpolates,
                                grad_outputs=torch.ones_like(disc),
                                create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean() * lam
