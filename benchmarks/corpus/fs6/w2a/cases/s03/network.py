import torch
import torch.nn as nn


class ExpandableMLP(nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, out_dim)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))

    @torch.no_grad()
    def add_neurons(self, n_new):
        old1, old2 = self.fc1, self.fc2
        self.fc1 = nn.Linear(old1.in_features, old1.out_features + n_new)
        self.fc2 = nn.Linear(old2.in_features + n_new, old2.out_features)
        self.fc1.weight[: old1.out_features] = old1.weight
        self.fc1.bias[: old1.out_features] = old1.bias
        self.fc2.weight[:, : old2.in_features] = old2.weight
        self.fc2.bias.copy_(old2.bias)
        return old1.out_features


class ActiveGradsHook:
    def __init__(self, name, mask):
        self.name = name
        self.mask = mask

    def __call__(self, grad):
        return grad * self.mask


def protect_old_neurons(model, n_old):
    handles = []
    m1 = torch.ones_like(model.fc1.weight)
    m1[:n_old] = 0
    b1 = torch.ones_like(model.fc1.bias)
    b1[:n_old] = 0
    m2 = torch.ones_like(model.fc2.weight)
    m2[:, :n_old] = 0
    for name, param, mask in (("fc1.weight", model.fc1.weight, m1), ("fc1.bias", model.fc1.bias, b1),
                              ("fc2.weight", model.fc2.weight, m2)):
        handles.append(param.register_hook(ActiveGradsHook(name, mask)))
    return handles
