import torch

MEANS = (0.485, 0.456, 0.406)
STDS = (0.229, 0.224, 0.225)


def denormalize(tensor, means=MEANS, stds=STDS):
    denormalized = tensor.clone()
    for channel, mean, std in zip(denormalized[0], means, stds):
        channel.mul_(std).add_(mean)
    return denormalized


def format_for_plotting(tensor):
    t = tensor[0]
    return t.permute(1, 2, 0).clamp(0, 1)


def grid_stats(img):
    return {"min": float(img.min()), "max": float(img.max()), "mean": float(img.mean())}
