import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, n_states, n_actions, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(n_states, hidden)
        self.fc2 = nn.Linear(hidden, n_actions)

    def forward(self, state):
        return torch.tanh(self.fc2(F.relu(self.fc1(state))))


class Critic(nn.Module):
    def __init__(self, n_states, n_actions, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(n_states + n_actions, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, state, action):
        return self.fc2(F.relu(self.fc1(torch.cat([state, action], dim=1))))
