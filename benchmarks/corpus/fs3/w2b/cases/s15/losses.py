import torch


def masked_mse(pred, target):
    mask = ~torch.isnan(target)
    return torch.square(pred - target)[mask].mean()
