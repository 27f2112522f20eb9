"""A loader shared with the evaluation code freezes every parameter it loads; the class
activation map then hooks the feature map, which no longer requires grad, and raises."""
import torch
from torch import nn


def load_network(width=8):
    network = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.Conv2d(width, width, 3, padding=1))
    for param in network.parameters():
        param.requires_grad_(False)
    return network


def class_activation_map(features_net, head, image):
    gradients = []
    features = features_net(image)
    features.register_hook(gradients.append)
    score = head(features.mean((2, 3))).max()
    score.backward()
    return (gradients[0].mean((2, 3), keepdim=True) * features).sum(1)


torch.manual_seed(0)
backbone = load_network()
classifier = nn.Linear(8, 4)
cam = class_activation_map(backbone, classifier, torch.randn(1, 3, 16, 16))
print(cam.shape)
