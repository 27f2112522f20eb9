import torch
import torch.nn.functional as F

MEANS = [0.485, 0.456, 0.406]
STDS = [0.229, 0.224, 0.225]


def apply_transforms(image, size=64):
    image = F.interpolate(image.unsqueeze(0), size=(size, size), mode="bilinear",
                          align_corners=False)
    mean = torch.tensor(MEANS).view(1, 3, 1, 1)
    std = torch.tensor(STDS).view(1, 3, 1, 1)
    return (image - mean) / std


def denormalize(tensor):
    denormalized = tensor.clone()
    for channel, mean, std in zip(denormalized[0], MEANS, STDS):
        channel.mul_(std).add_(mean)
    return denormalized


def normalize_map(saliency):
    saliency = saliency - saliency.min()
    return saliency / (saliency.max() + 1e-7)


def basic_visualize(input_, saliency_map, alpha=0.5):
    image = denormalize(input_).clamp(0, 1)[0]
    heat = normalize_map(saliency_map.detach())
    heat = torch.stack([heat, torch.zeros_like(heat), 1 - heat])
    return (1 - alpha) * image + alpha * heat
