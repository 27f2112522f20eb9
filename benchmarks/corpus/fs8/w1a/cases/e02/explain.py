import argparse

import compat  # noqa: F401
import torch
from torchvision import models

from cam import GradCAM, find_layer

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def load_images(n, size):
    images = torch.rand(n, 3, size, size)
    return (images - MEAN) / STD


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="resnet18")
    parser.add_argument("--target-layer", default=None)
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--image-size", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=2)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = getattr(models, args.arch)(weights=None, num_classes=args.num_classes)
    model.eval()
    layer = find_layer(model, args.target_layer)
    explainer = GradCAM(model, layer)

    images = load_images(args.batch_size, args.image_size)
    cams, logits = explainer(images)
    explainer.remove()
    for i in range(cams.shape[0]):
        pred = logits[i].argmax().item()
        peak = cams[i].flatten().argmax().item()
        print(f"image {i}: class {pred}, cam peak at {divmod(peak, args.image_size)}, "
              f"mean {cams[i].mean().item():.3f}")


if __name__ == "__main__":
    main()
