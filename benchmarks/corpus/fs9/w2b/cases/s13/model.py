import math

import torch
import torch.nn as nn


class FCNBlock(nn.Module):
    def __init__(self, layer_dim):
        super().__init__()
        self.fcn_layer = nn.Linear(layer_dim, layer_dim)
        self.relu = nn.ReLU()
        self.layer_norm = nn.LayerNorm(layer_dim)

    def forward(self, x):
        return self.relu(self.layer_norm(self.fcn_layer(x)))


class Net(nn.Module):
    def __init__(self, input_shape, layer_dim, n_blocks=1, n_classes=1):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Linear(input_shape[0] * input_shape[1], layer_dim)
        self.relu1 = nn.ReLU()
        self.layernorm1 = nn.LayerNorm(layer_dim)
        self.blocks = nn.ModuleList([FCNBlock(layer_dim) for _ in range(n_blocks)])
        self.last_layer = nn.Linear(layer_dim, n_classes)
        self.last_act = nn.Sigmoid()

    def forward(self, x):
        x = self.relu1(self.layernorm1(self.layer1(self.flatten(x))))
        for block in self.blocks:
            x = block(x)
        return self.last_act(self.last_layer(x))


def lr_warmup_cosine_decay(global_step, warmup_steps=0, hold=0, total_steps=0, start_lr=0.0, target_lr=1e-3):
    learning_rate = 0.5 * target_lr * (1 + math.cos(math.pi * (global_step - warmup_steps - hold)
                                                     / float(total_steps - warmup_steps - hold)))
    warmup_lr = target_lr * (global_step / warmup_steps) if warmup_steps > 0 else target_lr
    if hold > 0:
        learning_rate = torch.where(torch.tensor(global_step > warmup_steps + hold),
                                    torch.tensor(learning_rate), torch.tensor(target_lr)).item()
    return warmup_lr if global_step < warmup_steps else learning_rate
