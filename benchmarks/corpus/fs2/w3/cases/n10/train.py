import math
import random

import torch
import torch.nn as nn
import torch.optim as optim

from model import DQN, ReplayMemory, Transition

BATCH_SIZE, GAMMA, TAU, LR = 32, 0.95, 0.05, 1e-3
EPS_START, EPS_END, EPS_DECAY = 0.9, 0.05, 200
NUM_EPISODES, CHAIN_LEN, MAX_STEPS = 12, 8, 30


class ChainEnv:
    """Walk along a chain; reaching the right end pays 1 and ends the episode."""

    n_actions = 2

    def __init__(self, length):
        self.length = length

    def obs(self):
        return torch.nn.functional.one_hot(torch.tensor(self.pos), self.length).float()

    def reset(self):
        self.pos = 0
        return self.obs()

    def step(self, action):
        self.pos = max(0, min(self.length - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.length - 1
        return self.obs(), (1.0 if done else -0.01), done


def select_action(state, policy_net, steps_done):
    eps = EPS_END + (EPS_START - EPS_END) * math.exp(-1.0 * steps_done / EPS_DECAY)
    if random.random() > eps:
        with torch.no_grad():
            return policy_net(state.unsqueeze(0)).max(1).indices.view(1, 1)
    return torch.tensor([[random.randrange(ChainEnv.n_actions)]], dtype=torch.long)


def optimize_model(policy_net, target_net, memory, optimizer):
    if len(memory) < BATCH_SIZE:
        return None
    batch = Transition(*zip(*memory.sample(BATCH_SIZE)))
    non_final_mask = torch.tensor(tuple(s is not None for s in batch.next_state), dtype=torch.bool)
    non_final_next_states = torch.stack([s for s in batch.next_state if s is not None])
    state_batch = torch.stack(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)

    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch

    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss.item()


def soft_update(target_net, policy_net):
    target_net_state_dict = target_net.state_dict()
    policy_net_state_dict = policy_net.state_dict()
    for key in policy_net_state_dict:
        target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[key] * (1 - TAU)
    target_net.load_state_dict(target_net_state_dict)


def main():
    random.seed(0)
    torch.manual_seed(0)
    env = ChainEnv(CHAIN_LEN)
    policy_net = DQN(CHAIN_LEN, env.n_actions)
    target_net = DQN(CHAIN_LEN, env.n_actions)
    target_net.load_state_dict(policy_net.state_dict())
    optimizer = optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
    memory = ReplayMemory(10000)

    steps_done = 0
    for episode in range(NUM_EPISODES):
        state = env.reset()
        for t in range(MAX_STEPS):
            action = select_action(state, policy_net, steps_done)
            steps_done += 1
            observation, reward, done = env.step(action.item())
            next_state = None if done else observation
            memory.push(state, action, next_state, torch.tensor([reward]))
            state = observation
            loss = optimize_model(policy_net, target_net, memory, optimizer)
            soft_update(target_net, policy_net)
            if done:
                break
        print(f"episode {episode}: steps {t + 1} loss {loss if loss is None else round(loss, 5)}")


if __name__ == "__main__":
    main()
