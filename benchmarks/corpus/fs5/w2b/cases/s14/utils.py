import torch


def polyak_update(params, target_params, tau):
    with torch.no_grad():
        for param, target_param in zip(params, target_params):
            target_param.data.mul_(1 - tau)
            torch.add(target_param.data, param.data, alpha=tau, out=target_param.data)


class ReplayBuffer:
    def __init__(self, size, obs_dim):
        self.obs = torch.zeros(size, obs_dim)
        self.next_obs = torch.zeros(size, obs_dim)
        self.actions = torch.zeros(size, dtype=torch.long)
        self.rewards = torch.zeros(size)
        self.dones = torch.zeros(size)
        self.pos, self.full, self.size = 0, False, size

    def add(self, obs, next_obs, action, reward, done):
        self.obs[self.pos], self.next_obs[self.pos] = obs, next_obs
        self.actions[self.pos], self.rewards[self.pos], self.dones[self.pos] = action, reward, done
        self.pos = (self.pos + 1) % self.size
        self.full = self.full or self.pos == 0

    def sample(self, batch_size):
        upper = self.size if self.full else self.pos
        idx = torch.randint(0, upper, (batch_size,))
        return self.obs[idx], self.actions[idx], self.next_obs[idx], self.dones[idx], self.rewards[idx]
