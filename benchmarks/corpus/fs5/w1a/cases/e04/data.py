import math

import torch
from torch.utils.data import DataLoader, TensorDataset


def collocation_points(n, generator):
    x = torch.rand(n, 1, generator=generator) * 2 - 1
    t = torch.rand(n, 1, generator=generator)
    return torch.cat([x, t], dim=1)


def initial_condition(n, generator):
    x = torch.rand(n, 1, generator=generator) * 2 - 1
    xt = torch.cat([x, torch.zeros_like(x)], dim=1)
    u0 = -torch.sin(math.pi * x)
    return xt, u0


def make_loaders(n_train=256, n_val=64, n_test=128, batch_size=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    train_xt = collocation_points(n_train, g)
    ic_xt, ic_u = initial_condition(n_train, g)
    val_xt = collocation_points(n_val, g)
    test_xt = collocation_points(n_test, g)
    train = DataLoader(TensorDataset(train_xt, ic_xt, ic_u), batch_size=batch_size, shuffle=True, generator=g)
    val = DataLoader(TensorDataset(val_xt), batch_size=batch_size)
    test = DataLoader(TensorDataset(test_xt), batch_size=batch_size)
    return train, val, test
