import torch.nn as nn


def make_model(in_size, out_size, num_layers=3, hidden=64):
    layers = []
    for _ in range(num_layers - 1):
        layers.append(nn.Linear(in_size, hidden))
        layers.append(nn.ReLU())
        in_size = hidden
    layers.append(nn.Linear(in_size, out_size))
    return nn.Sequential(*layers)
