import torch


def smape(model_outputs, target_outputs):
    numerator = torch.abs(model_outputs - target_outputs)
    denominator = torch.abs(model_outputs) + torch.abs(target_outputs)
    elementwise_smape = torch.div(numerator, denominator)
    nan_mask = torch.isnan(elementwise_smape)
    return elementwise_smape[~nan_mask].mean()


def mase(model_outputs, target_outputs, insample, m=1):
    scale = (insample[:, m:] - insample[:, :-m]).abs().mean(dim=1, keepdim=True) + 1e-8
    return ((model_outputs - target_outputs).abs() / scale).mean()


LOSSES = {"smape": lambda out, tgt, ins: smape(out, tgt), "mase": mase}
