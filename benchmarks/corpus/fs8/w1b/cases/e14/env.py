import numpy as np


class GridWalk:
    """1-D corridor: reach the right end for +1, fall off the left end for -1."""

    def __init__(self, size=7, max_steps=20, seed=0):
        self.size = size
        self.max_steps = max_steps
        self.rng = np.random.default_rng(seed)
        self.observation_dim = size
        self.n_actions = 2

    def _obs(self):
        o = np.zeros(self.size, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def reset(self):
        self.pos = self.size // 2
        self.t = 0
        return self._obs()

    def step(self, action):
        self.t += 1
        self.pos += 1 if action == 1 else -1
        if self.rng.random() < 0.1:
            self.pos += self.rng.choice([-1, 1])
        self.pos = int(np.clip(self.pos, 0, self.size - 1))
        done = self.pos in (0, self.size - 1) or self.t >= self.max_steps
        reward = 1.0 if self.pos == self.size - 1 else (-1.0 if self.pos == 0 else -0.01)
        return self._obs(), reward, done
