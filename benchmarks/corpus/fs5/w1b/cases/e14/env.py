import torch


class GridTargetEnv:
    """Batched 1-D walk: move left/stay/right towards a hidden target cell."""

    def __init__(self, n_envs, size=9, max_steps=16, seed=0):
        self.n, self.size, self.max_steps = n_envs, size, max_steps
        self.gen = torch.Generator().manual_seed(seed)
        self.reset()

    def _obs(self):
        pos = torch.nn.functional.one_hot(self.pos, self.size).float()
        tgt = torch.nn.functional.one_hot(self.target, self.size).float()
        return torch.cat([pos, tgt], dim=-1)

    def reset(self):
        self.pos = torch.randint(0, self.size, (self.n,), generator=self.gen)
        self.target = torch.randint(0, self.size, (self.n,), generator=self.gen)
        self.t = torch.zeros(self.n, dtype=torch.long)
        return self._obs()

    @property
    def obs_dim(self):
        return 2 * self.size

    def step(self, action):
        before = (self.pos - self.target).abs()
        self.pos = (self.pos + action - 1).clamp(0, self.size - 1)
        after = (self.pos - self.target).abs()
        self.t += 1
        reward = (before - after).float() - 0.05
        done = (after == 0) | (self.t >= self.max_steps)
        reward = reward + (after == 0).float()
        if done.any():
            k = int(done.sum())
            self.pos[done] = torch.randint(0, self.size, (k,), generator=self.gen)
            self.target[done] = torch.randint(0, self.size, (k,), generator=self.gen)
            self.t[done] = 0
        return self._obs(), reward, done.float()
