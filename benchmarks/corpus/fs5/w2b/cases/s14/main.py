import torch

from dqn import DQN


class SensorEnv:
    """Observations are raw sensor readings with large offsets (hence the input BatchNorm)."""

    obs_dim, n_actions = 6, 3

    def __init__(self, horizon=40):
        self.horizon = horizon
        self.offset = torch.tensor([120.0, -40.0, 5.0, 300.0, 0.5, -75.0])
        self.scale = torch.tensor([10.0, 4.0, 1.0, 25.0, 0.1, 6.0])

    def reset(self):
        self.t = 0
        self.state = torch.randn(self.obs_dim)
        return self.offset + self.scale * self.state

    def step(self, action):
        self.t += 1
        self.state = 0.9 * self.state + 0.3 * torch.randn(self.obs_dim)
        self.state[action] += 0.5
        reward = float(-self.state.abs().mean())
        return self.offset + self.scale * self.state, reward, self.t >= self.horizon


def main():
    torch.manual_seed(3)
    env = SensorEnv()
    model = DQN(env, learning_rate=5e-4, target_update_interval=100, learning_starts=64)
    model.learn(total_timesteps=300)
    return model


if __name__ == "__main__":
    model = main()
