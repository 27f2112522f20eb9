"""Initialising a parameter in place outside torch.no_grad()."""
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)
        self.out = nn.Linear(8, 3)
        self.reset_parameters()

    def reset_parameters(self):
        self.out.weight.normal_(0.0, 0.01)
        self.out.bias.zero_()


model = Classifier()
