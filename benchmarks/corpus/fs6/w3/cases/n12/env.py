import torch


class ChainEnv:
    """Small deterministic-dynamics environment with a noisy observation."""

    def __init__(self, length=8, seed=0):
        self.length = length
        self.g = torch.Generator().manual_seed(seed)
        self.pos = 0

    def _obs(self):
        o = torch.zeros(self.length)
        o[self.pos] = 1.0
        return o + 0.05 * torch.randn(self.length, generator=self.g)

    def reset(self):
        self.pos = 0
        return self._obs()

    def step(self, action):
        self.pos = min(self.pos + 1, self.length - 1) if action == 1 else max(self.pos - 1, 0)
        done = self.pos == self.length - 1
        reward = 1.0 if done else -0.01
        return self._obs(), reward, done
