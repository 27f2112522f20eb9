import compat  # noqa: F401

import argparse

import torch
from torchvision import models

from cam import GradCAM


def build_model(arch, num_classes):
    if arch == "densenet":
        model = models.DenseNet(growth_rate=16, block_config=(4, 4, 4, 4),
                                num_init_features=32, num_classes=num_classes)
        target_layers = [model.features[-1]]
    elif arch == "resnet18":
        model = models.resnet18(weights=None, num_classes=num_classes)
        target_layers = [model.layer4[-1]]
    else:
        raise ValueError(arch)
    return model, target_layers


def test_cam(model, target_layers, images):
    cam = GradCAM(model=model, target_layers=target_layers)
    masks = []
    for image in images:
        cam_mask = cam(input_tensor=image.unsqueeze(0))
        masks.append(cam_mask[0])
    return masks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="densenet")
    parser.add_argument("--num_classes", type=int, default=4)
    args = parser.parse_args()

    torch.manual_seed(0)
    model, target_layers = build_model(args.arch, args.num_classes)
    images = torch.rand(2, 3, 64, 64)
    masks = test_cam(model, target_layers, images)
    for i, m in enumerate(masks):
        print(f"image {i}: cam {tuple(m.shape)} peak at {divmod(int(m.argmax()), m.shape[1])}")


if __name__ == "__main__":
    main()
