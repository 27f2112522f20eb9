import torch
import torch.nn.functional as F
from torch import nn


class FCQV(nn.Module):
    def __init__(self, input_dim, output_dim, hidden_dims=(64, 64), activation_fc=F.relu):
        super().__init__()
        self.activation_fc = activation_fc
        self.input_layer = nn.Linear(input_dim, hidden_dims[0])
        self.hidden_layers = nn.ModuleList()
        for i in range(len(hidden_dims) - 1):
            in_dim = hidden_dims[i]
            if i == 0:
                in_dim += output_dim
            self.hidden_layers.append(nn.Linear(in_dim, hidden_dims[i + 1]))
        self.output_layer = nn.Linear(hidden_dims[-1], 1)

    def forward(self, state, action):
        x = self.activation_fc(self.input_layer(state))
        for i, hidden_layer in enumerate(self.hidden_layers):
            if i == 0:
                x = torch.cat((x, action), dim=1)
            x = self.activation_fc(hidden_layer(x))
        return self.output_layer(x)


class FCDP(nn.Module):
    def __init__(self, input_dim, action_bounds, hidden_dims=(64, 64), activation_fc=F.relu):
        super().__init__()
        self.activation_fc = activation_fc
        self.register_buffer("env_min", torch.as_tensor(action_bounds[0], dtype=torch.float32))
        self.register_buffer("env_max", torch.as_tensor(action_bounds[1], dtype=torch.float32))
        self.input_layer = nn.Linear(input_dim, hidden_dims[0])
        self.hidden_layers = nn.ModuleList(
            nn.Linear(hidden_dims[i], hidden_dims[i + 1]) for i in range(len(hidden_dims) - 1))
        self.output_layer = nn.Linear(hidden_dims[-1], len(self.env_max))

    def forward(self, state):
        x = self.activation_fc(self.input_layer(state))
        for hidden_layer in self.hidden_layers:
            x = self.activation_fc(hidden_layer(x))
        x = torch.tanh(self.output_layer(x))
        return (x + 1) / 2 * (self.env_max - self.env_min) + self.env_min
