import torch


def l2_loss(a, b):
    return torch.mean((a - b) ** 2)


def l1_loss(a, b):
    return torch.mean(torch.abs(a - b))
