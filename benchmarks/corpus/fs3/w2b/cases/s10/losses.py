import torch
import torch.nn.functional as F


def mse_density(pred, gt):
    return F.mse_loss(pred, gt, reduction="sum") / pred.shape[0]


def generalized_kl(pred, gt):
    elem = gt * torch.log(gt / pred) - gt + pred
    elem = elem.nan_to_num(0.0)
    return elem.sum() / pred.shape[0]


LOSSES = {"mse": mse_density, "gkl": generalized_kl}
