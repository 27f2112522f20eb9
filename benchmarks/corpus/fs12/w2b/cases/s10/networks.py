import torch
import torch.nn as nn
import torch.nn.functional as F


class AgentNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.rnn = nn.GRUCell(hidden, hidden)
        self.fc2 = nn.Linear(hidden, n_actions)

    def forward(self, obs, h):
        x = F.relu(self.fc1(obs))
        h = self.rnn(x, h)
        return self.fc2(h), h


class QMixNet(nn.Module):
    def __init__(self, n_agents, state_dim, embed=16):
        super().__init__()
        self.n_agents = n_agents
        self.embed = embed
        self.hyper_w1 = nn.Linear(state_dim, n_agents * embed)
        self.hyper_b1 = nn.Linear(state_dim, embed)
        self.hyper_w2 = nn.Linear(state_dim, embed)
        self.hyper_b2 = nn.Sequential(nn.Linear(state_dim, embed), nn.ReLU(), nn.Linear(embed, 1))

    def forward(self, q_values, states):
        b = q_values.size(0)
        q_values = q_values.view(b, 1, self.n_agents)
        w1 = torch.abs(self.hyper_w1(states)).view(b, self.n_agents, self.embed)
        b1 = self.hyper_b1(states).view(b, 1, self.embed)
        hidden = F.elu(torch.bmm(q_values, w1) + b1)
        w2 = torch.abs(self.hyper_w2(states)).view(b, self.embed, 1)
        b2 = self.hyper_b2(states).view(b, 1, 1)
        return (torch.bmm(hidden, w2) + b2).view(b, 1)
