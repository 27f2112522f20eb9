import random
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

Transition = namedtuple("Transition", "state action log_prob reward next_state done")


class ReplayBuffer:
    def __init__(self, capacity):
        self.memory = deque(maxlen=capacity)

    def store(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return Transition(*zip(*random.sample(self.memory, batch_size)))

    def __len__(self):
        return len(self.memory)


class ActorCriticNetwork(nn.Module):
    def __init__(self, input_dims, n_actions, fc1_dims=64, fc2_dims=64):
        super().__init__()
        self.fc1 = nn.Linear(input_dims, fc1_dims)
        self.fc2 = nn.Linear(fc1_dims, fc2_dims)
        self.pi = nn.Linear(fc2_dims, n_actions)
        self.v = nn.Linear(fc2_dims, 1)

    def forward(self, state):
        x = F.relu(self.fc2(F.relu(self.fc1(state))))
        return self.pi(x), self.v(x).squeeze(-1)


class Agent:
    def __init__(self, input_dims, n_actions, lr=1e-3, gamma=0.99, mem_size=256, batch_size=8):
        self.gamma = gamma
        self.batch_size = batch_size
        self.actor_critic = ActorCriticNetwork(input_dims, n_actions)
        self.optimizer = torch.optim.Adam(self.actor_critic.parameters(), lr=lr)
        self.memory = ReplayBuffer(mem_size)
        self.log_prob = None

    def choose_action(self, observation):
        state = torch.tensor(observation).unsqueeze(0)
        logits, _ = self.actor_critic(state)
        dist = Categorical(logits=logits)
        action = dist.sample()
        self.log_prob = dist.log_prob(action)
        return action.item()

    def remember(self, state, action, reward, next_state, done):
        self.memory.store(state, action, self.log_prob, reward, next_state, done)

    def learn(self):
        if len(self.memory) < self.batch_size:
            return None
        batch = self.memory.sample(self.batch_size)
        states = torch.tensor(batch.state)
        actions = torch.tensor(batch.action)
        next_states = torch.tensor(batch.next_state)
        rewards = torch.tensor(batch.reward, dtype=torch.float32)
        dones = torch.tensor(batch.done, dtype=torch.float32)
        log_probs = torch.cat(batch.log_prob)

        _, values = self.actor_critic(states)
        with torch.no_grad():
            _, next_values = self.actor_critic(next_states)
        delta = rewards + self.gamma * next_values * (1.0 - dones) - values

        actor_loss = -(log_probs * delta.detach()).mean()
        critic_loss = delta.pow(2).mean()
        self.optimizer.zero_grad()
        (actor_loss + critic_loss).backward()
        self.optimizer.step()
        return actor_loss.item(), critic_loss.item()
