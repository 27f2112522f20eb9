import argparse

import torch

from agent import DQNAgent


class ReplayBuffer:
    def __init__(self, obs_dim, capacity=512):
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.actions = torch.zeros(capacity, dtype=torch.long)
        self.rewards = torch.zeros(capacity)
        self.dones = torch.zeros(capacity)
        self.capacity, self.size, self.ptr = capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i], self.next_obs[i], self.dones[i] = o, a, r, o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, n):
        idx = torch.randint(0, self.size, (n,))
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--double-q", action="store_true", default=True)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--tau", type=float, default=0.5)
    p.add_argument("--target-sync", type=int, default=5)
    p.add_argument("--steps", type=int, default=300)
    return p.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(0)
    obs_dim, n_actions = 4, 3
    agent = DQNAgent(obs_dim, n_actions, {"double_q": args.double_q, "gamma": args.gamma,
                                          "lr": args.lr, "tau": args.tau, "target_sync": args.target_sync})
    buffer = ReplayBuffer(obs_dim)
    obs = torch.randn(obs_dim)
    for t in range(args.steps):
        with torch.no_grad():
            action = agent.q(obs).argmax().item() if torch.rand(()) > 0.2 else int(torch.randint(0, n_actions, ()))
        next_obs = obs + 0.1 * torch.randn(obs_dim)
        reward = float(next_obs[action])
        done = float(t % 50 == 49)
        buffer.add(obs, action, reward, next_obs, done)
        obs = torch.randn(obs_dim) if done else next_obs
        if buffer.size >= 64 and t % 4 == 0:
            loss = agent.update(buffer.sample(32))
            if agent.updates % 20 == 0:
                print(f"t {t}  updates {agent.updates}  loss {loss:.4f}")
    return agent


if __name__ == "__main__":
    agent = main()
    model = agent.q
