import torch
import torch.nn as nn


class CatNetwork(nn.Module):
    def __init__(self, in_dim, n_hidden_1, out_dim):
        super().__init__()
        self.layer1 = nn.Sequential(
            nn.Linear(in_dim, n_hidden_1),
            nn.ReLU(True),
        )
        self.layer2 = nn.Sequential(
            nn.Linear(n_hidden_1, out_dim),
            nn.Sigmoid(),
        )

    def forward(self, x):
        x = self.layer1(x)
        x = self.layer2(x)
        return x

    def named_tensors(self):
        return self.state_dict()

    def split_weight_bias(self):
        weights, biases = [], []
        for name, tensor in self.named_tensors().items():
            if name.endswith("weight"):
                weights.append(tensor)
            else:
                biases.append(tensor)
        return weights, biases

    def regularization(self, weight_decay):
        loss_reg = 0.0
        for name, tensor in self.named_tensors().items():
            if name.endswith("weight"):
                loss_reg = loss_reg + torch.sum(torch.square(tensor))
        return weight_decay * loss_reg
