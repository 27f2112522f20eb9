import math

import torch
from torch import nn

from layer_norm_lstm import LayerNormLSTMCell


def preprocess_gradients(x, p=10.0):
    x = x.view(-1, 1)
    eps = math.exp(-p)
    magnitude = torch.clamp(torch.log(x.abs() + eps) / p, min=-1.0)
    sign = torch.clamp(x * math.exp(p), -1.0, 1.0)
    return torch.cat([magnitude, sign], 1)


class MetaOptimizer(nn.Module):
    def __init__(self, num_params, num_layers=2, hidden_size=10):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_params = num_params
        self.linear1 = nn.Linear(3, hidden_size)

        self.lstms = []
        for _ in range(num_layers):
            self.lstms.append(LayerNormLSTMCell(hidden_size, hidden_size))

        self.linear2 = nn.Linear(hidden_size, 1)
        self.linear2.weight.data.mul_(0.1)
        self.linear2.bias.data.fill_(0.0)

    def reset_lstm(self):
        self.hx = [torch.zeros(self.num_params, self.hidden_size) for _ in self.lstms]
        self.cx = [torch.zeros(self.num_params, self.hidden_size) for _ in self.lstms]

    def forward(self, x):
        x = torch.tanh(self.linear1(x))
        for i in range(len(self.lstms)):
            if x.size(0) != self.hx[i].size(0):
                self.hx[i] = self.hx[i].expand(x.size(0), self.hx[i].size(1))
                self.cx[i] = self.cx[i].expand(x.size(0), self.cx[i].size(1))
            self.hx[i], self.cx[i] = self.lstms[i](x, (self.hx[i], self.cx[i]))
            x = self.hx[i]
        return self.linear2(x).squeeze(1)

    def meta_update(self, flat_params, flat_grads):
        inputs = torch.cat([preprocess_gradients(flat_grads), flat_params.view(-1, 1)], 1)
        updates = self(inputs)
        return flat_params + updates
