import torch

from model import ActorCritic
from ppo import PPO, RolloutStorage

CONFIG = dict(num_envs=8, num_steps=32, updates=6, gamma=0.99, gae_lambda=0.95,
              horizon=64, seed=0)


class PointMassEnv:
    """Batched 2-D point mass that should be steered to the origin."""

    obs_dim, act_dim = 4, 2

    def __init__(self, num_envs, horizon):
        self.num_envs, self.horizon = num_envs, horizon
        self.state = torch.zeros(num_envs, 4)
        self.t = torch.zeros(num_envs, dtype=torch.long)

    def _reset(self, idx):
        self.state[idx] = torch.cat([torch.rand(len(idx), 2) * 4 - 2, torch.zeros(len(idx), 2)], 1)
        self.t[idx] = 0

    def reset(self):
        self._reset(torch.arange(self.num_envs))
        return self.state.clone()

    def step(self, action):
        action = action.clamp(-1.0, 1.0)
        pos, vel = self.state[:, :2], self.state[:, 2:]
        vel = 0.9 * vel + 0.1 * action
        pos = pos + 0.1 * vel
        self.state = torch.cat([pos, vel], 1)
        self.t += 1
        reward = -pos.norm(dim=1) - 0.01 * action.pow(2).sum(1)
        done = self.t >= self.horizon
        if done.any():
            self._reset(done.nonzero().squeeze(1))
        return self.state.clone(), reward, done


def main(cfg):
    torch.manual_seed(cfg["seed"])
    env = PointMassEnv(cfg["num_envs"], cfg["horizon"])
    actor_critic = ActorCritic(env.obs_dim, env.act_dim)
    agent = PPO(actor_critic)
    rollouts = RolloutStorage(cfg["num_steps"], cfg["num_envs"], env.obs_dim, env.act_dim)
    rollouts.obs[0].copy_(env.reset())

    for update in range(cfg["updates"]):
        for step in range(cfg["num_steps"]):
            action, log_prob, value = actor_critic.act(rollouts.obs[step])
            obs, reward, done = env.step(action)
            rollouts.insert(obs, action, log_prob, value, reward, (~done).float())
        with torch.no_grad():
            next_value = actor_critic.get_value(rollouts.obs[-1])
        rollouts.compute_returns(next_value, cfg["gamma"], cfg["gae_lambda"])
        value_loss, action_loss, entropy = agent.update(rollouts)
        rollouts.after_update()
        print(f"update {update}: reward {rollouts.rewards.mean():.3f} "
              f"value_loss {value_loss:.3f} action_loss {action_loss:.3f} entropy {entropy:.3f}")


if __name__ == "__main__":
    main(CONFIG)
