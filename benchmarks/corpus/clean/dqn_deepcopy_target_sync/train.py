import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.net(x)


class ReplayBuffer:
    def __init__(self, capacity=500):
        self.data = []
        self.capacity = capacity

    def push(self, *transition):
        if len(self.data) >= self.capacity:
            self.data.pop(0)
        self.data.append(transition)

    def sample(self, batch_size):
        batch = random.sample(self.data, batch_size)
        obs, act, rew, nxt, done = zip(*batch)
        return torch.stack(obs), torch.tensor(act), torch.tensor(rew), torch.stack(nxt), torch.tensor(done, dtype=torch.float32)


def td_loss(policy_net, target_net, batch, gamma=0.99):
    obs, act, rew, nxt, done = batch
    q = policy_net(obs).gather(1, act.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_q = target_net(nxt).max(dim=1).values
        target = rew + gamma * (1.0 - done) * next_q
    return F.smooth_l1_loss(q, target)


def main():
    torch.manual_seed(0)
    random.seed(0)
    policy_net = QNet()
    target_net = copy.deepcopy(policy_net)
    target_net.eval()
    optimizer = torch.optim.Adam(policy_net.parameters(), lr=1e-3)
    buffer = ReplayBuffer()
    obs = torch.randn(4)
    for step in range(120):
        with torch.no_grad():
            action = policy_net(obs).argmax().item() if random.random() > 0.2 else random.randrange(2)
        nxt = torch.randn(4)
        buffer.push(obs, action, float(action == 0), nxt, step % 20 == 19)
        obs = nxt
        if len(buffer.data) >= 32:
            loss = td_loss(policy_net, target_net, buffer.sample(32))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 25 == 0:
                target_net.load_state_dict(policy_net.state_dict())
                print(f"step {step} loss {loss.item():.4f} (target synced)")


if __name__ == "__main__":
    main()
