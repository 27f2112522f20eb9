import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, n_states, n_actions, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(n_states, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, n_actions)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class DoubleDQN:
    def __init__(self, n_states, n_actions, gamma=0.95, lr=1e-3):
        self.n_actions = n_actions
        self.gamma = gamma
        self.policy_net = MLP(n_states, n_actions)
        self.target_net = self.policy_net
        self.optimizer = torch.optim.Adam(self.policy_net.parameters(), lr=lr)

    def sample_action(self, state, epsilon):
        if random.random() < epsilon:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return self.policy_net(state[None]).argmax(1).item()

    def update(self, batch):
        state, action, reward, next_state, done = batch
        q_values = self.policy_net(state).gather(1, action[:, None])
        next_q_values = self.policy_net(next_state)
        next_target_values = self.target_net(next_state)
        next_target_q = next_target_values.gather(1, next_q_values.max(1)[1][:, None])
        expected_q = reward[:, None] + self.gamma * next_target_q * (1 - done[:, None])
        loss = F.mse_loss(q_values, expected_q)
        self.optimizer.zero_grad()
        loss.backward()
        for param in self.policy_net.parameters():
            param.grad.data.clamp_(-1, 1)
        self.optimizer.step()
        return loss.item()

    def sync_target(self):
        self.target_net.load_state_dict(self.policy_net.state_dict())
