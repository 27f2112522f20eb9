import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, obs_shape=(3, 32, 32)):
        super().__init__()
        self.convnet = nn.Sequential(
            nn.Conv2d(obs_shape[0], 16, 3, stride=2), nn.ReLU(),
            nn.Conv2d(16, 16, 3, stride=1), nn.ReLU(),
        )
        with torch.no_grad():
            self.repr_dim = self.convnet(torch.zeros(1, *obs_shape)).numel()

    def forward(self, obs):
        obs = obs / 255.0 - 0.5
        return self.convnet(obs).flatten(1)


class CIC(nn.Module):
    def __init__(self, obs_dim, skill_dim, hidden_dim=64, project_skill=True):
        super().__init__()
        self.state_net = nn.Sequential(nn.Linear(obs_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, skill_dim))
        self.next_state_net = nn.Sequential(nn.Linear(obs_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, skill_dim))
        self.pred_net = nn.Sequential(nn.Linear(2 * skill_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, skill_dim))
        self.skill_net = nn.Sequential(nn.Linear(skill_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, skill_dim))
        self.project_skill = project_skill

    def forward(self, state, next_state, skill):
        state = self.state_net(state)
        next_state = self.next_state_net(next_state)
        query = self.skill_net(skill) if self.project_skill else skill
        key = self.pred_net(torch.cat([state, next_state], 1))
        return query, key
