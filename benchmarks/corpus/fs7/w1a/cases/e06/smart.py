from itertools import count

import torch
import torch.nn as nn
import torch.nn.functional as F


def inf_norm(x):
    return torch.norm(x, p=float("inf"), dim=-1, keepdim=True)


def kl_loss(input, target, reduction="batchmean"):
    return F.kl_div(F.log_softmax(input, dim=-1), F.softmax(target, dim=-1),
                    reduction=reduction)


def sym_kl_loss(input, target, reduction="sum", alpha=1.0):
    return alpha * F.kl_div(F.log_softmax(input, dim=-1), F.softmax(target.detach(), dim=-1),
                            reduction=reduction) \
        + F.kl_div(F.log_softmax(target, dim=-1), F.softmax(input.detach(), dim=-1),
                   reduction=reduction)


class SMARTLoss(nn.Module):
    def __init__(self, eval_fn, loss_fn, loss_last_fn=None, norm_fn=inf_norm,
                 num_steps=1, step_size=1e-3, epsilon=1e-6, noise_var=1e-5):
        super().__init__()
        self.eval_fn = eval_fn
        self.loss_fn = loss_fn
        self.loss_last_fn = loss_last_fn if loss_last_fn is not None else loss_fn
        self.norm_fn = norm_fn
        self.num_steps = num_steps
        self.step_size = step_size
        self.epsilon = epsilon
        self.noise_var = noise_var

    def forward(self, embed, state):
        noise = torch.randn_like(embed, requires_grad=True) * self.noise_var
        for i in count():
            embed_perturbed = embed + noise
            state_perturbed = self.eval_fn(embed_perturbed)
            if i == self.num_steps:
                return self.loss_last_fn(state_perturbed, state)
            loss = self.loss_fn(state_perturbed, state.detach())
            noise_gradient, = torch.autograd.grad(loss, noise)
            step = noise + self.step_size * noise_gradient
            step_norm = self.norm_fn(step)
            noise = step / (step_norm + self.epsilon)
            noise = noise.detach().requires_grad_()
