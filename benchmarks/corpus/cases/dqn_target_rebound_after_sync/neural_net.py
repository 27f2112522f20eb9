import torch.nn as nn


class DQN(nn.Module):
    def __init__(self, obs_size, n_actions, hidden=64):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(),
                                nn.Linear(hidden, hidden), nn.ReLU(),
                                nn.Linear(hidden, n_actions))

    def forward(self, x):
        return self.fc(x)
