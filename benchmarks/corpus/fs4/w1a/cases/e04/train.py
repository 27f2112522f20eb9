import argparse

import numpy as np
import torch

from a3c import A3C, A_DIM, S_INFO, S_LEN


class ToyABREnv:
    """Stand-in for the chunk-level video streaming simulator."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.bitrates = np.array([300, 750, 1200, 1850, 2850, 4300]) / 4300.0
        self.buffer = 4.0

    def step(self, action):
        throughput = self.rng.uniform(0.2, 1.2)
        delay = self.bitrates[action] / throughput
        rebuffer = max(delay - self.buffer, 0.0)
        self.buffer = max(self.buffer - delay, 0.0) + 4.0
        reward = self.bitrates[action] - 4.3 * rebuffer
        obs = self.rng.normal(size=(S_INFO, S_LEN))
        obs[0, -1] = self.bitrates[action]
        obs[1, -1] = self.buffer / 10.0
        return obs, reward


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--critic-loss", default="huber", choices=["mse", "huber"])
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-len", type=int, default=16)
    args = parser.parse_args()

    torch.manual_seed(0)
    cfg = {"actor_lr": 1e-4, "critic_lr": 1e-3, "gamma": 0.99, "entropy_weight": 0.5,
           "critic_loss": args.critic_loss}
    agent = A3C(cfg)
    env = ToyABREnv(seed=0)
    obs = np.zeros((S_INFO, S_LEN))
    for epoch in range(args.epochs):
        s_batch, a_batch, r_batch = [], [], []
        for _ in range(args.batch_len):
            with torch.no_grad():
                probs = agent.actor(torch.from_numpy(obs).float().unsqueeze(0))
            action = int(torch.multinomial(probs, 1).item())
            s_batch.append(obs)
            a_batch.append(action)
            obs, reward = env.step(action)
            r_batch.append(reward)
        actor_loss, critic_loss = agent.get_network_gradient(s_batch, a_batch, r_batch, terminal=False)
        print(f"epoch {epoch} actor {actor_loss:.3f} critic {critic_loss:.3f}")


if __name__ == "__main__":
    main()
