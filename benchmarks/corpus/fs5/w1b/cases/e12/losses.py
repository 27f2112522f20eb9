import torch
import torch.nn.functional as F


def d_logistic_loss(real_pred, fake_pred):
    return F.softplus(fake_pred).mean() + F.softplus(-real_pred).mean()


def g_nonsaturating_loss(fake_pred):
    return F.softplus(-fake_pred).mean()


def r1_penalty(real_pred, real):
    (grad,) = torch.autograd.grad(real_pred.sum(), real, create_graph=True)
    return grad.pow(2).flatten(1).sum(1).mean()
