import torch
import torch.nn as nn
import torch.optim as optim

from neural_net import DQN


class CentralControl:
    def __init__(self, obs_size, n_actions, gamma, double_DQN=True):
        self.target_nn = DQN(obs_size, n_actions)
        self.moving_nn = DQN(obs_size, n_actions)
        self.gamma = gamma
        self.double_DQN = double_DQN

    def set_optimizer(self, learning_rate):
        self.optimizer = optim.Adam(self.moving_nn.parameters(), lr=learning_rate)

    def optimize(self, mini_batch):
        self.optimizer.zero_grad()
        loss = self._calculate_loss(mini_batch)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def update_target(self):
        """Copy the moving NN in the target NN."""
        self.target_nn.load_state_dict(self.moving_nn.state_dict())
        self.target_nn = self.moving_nn

    def _calculate_loss(self, mini_batch):
        states, actions, next_states, rewards, dones = mini_batch
        state_action_values = self.moving_nn(states).gather(1, actions[:, None]).squeeze(-1)
        if self.double_DQN:
            double_max_action = self.moving_nn(next_states).max(1)[1].detach()
            target_output = self.target_nn(next_states)
            next_state_values = target_output.gather(1, double_max_action[:, None]).squeeze(-1)
        else:
            next_state_values = self.target_nn(next_states).max(1)[0]
        next_state_values = next_state_values.detach() * (1.0 - dones)
        expected_state_action_values = rewards + self.gamma * next_state_values
        return nn.MSELoss()(state_action_values, expected_state_action_values)
