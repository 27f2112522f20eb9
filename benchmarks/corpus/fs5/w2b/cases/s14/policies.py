import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, net_arch=(64, 64)):
        super().__init__()
        layers, last = [nn.BatchNorm1d(obs_dim)], obs_dim
        for h in net_arch:
            layers += [nn.Linear(last, h), nn.ReLU()]
            last = h
        layers.append(nn.Linear(last, n_actions))
        self.q_net = nn.Sequential(*layers)

    def forward(self, obs):
        return self.q_net(obs)

    def _predict(self, obs):
        return self(obs).argmax(dim=1)


class DQNPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions, lr):
        super().__init__()
        self.q_net = QNetwork(obs_dim, n_actions)
        self.q_net_target = QNetwork(obs_dim, n_actions)
        self.q_net_target.load_state_dict(self.q_net.state_dict())
        self.q_net_target.train(False)
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=lr)

    def set_training_mode(self, mode):
        self.q_net.train(mode)
        self.training = mode
