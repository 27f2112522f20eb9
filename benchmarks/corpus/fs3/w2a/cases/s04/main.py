import numpy as np
import torch

from ddpg import DDPG, ReplayBuffer

SEED = 12
STATE_DIM = 3
ACTION_BOUNDS = ([-2.0], [2.0])


class PendulumLike:
    def __init__(self, rng):
        self.rng = rng

    def reset(self):
        self.state = self.rng.uniform(-1, 1, STATE_DIM).astype(np.float32)
        self.t = 0
        return self.state

    def step(self, action):
        self.t += 1
        reward = -float(np.sum(self.state ** 2) + 0.01 * np.sum(action ** 2))
        self.state = np.clip(self.state + 0.05 * np.concatenate([action, -action, action]), -1, 1).astype(np.float32)
        return self.state, reward, self.t >= 50


if __name__ == "__main__":
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    env = PendulumLike(np.random.default_rng(SEED))
    agent = DDPG(STATE_DIM, ACTION_BOUNDS)
    agent.setup()
    buffer = ReplayBuffer(10000, STATE_DIM, 1)

    for episode in range(4):
        state, done, ep_return = env.reset(), False, 0.0
        while not done:
            with torch.no_grad():
                action = agent.online_policy_model(torch.from_numpy(state)[None])[0].numpy()
            action = np.clip(action + np.random.normal(0, 0.1, size=1), -2, 2).astype(np.float32)
            next_state, reward, done = env.step(action)
            buffer.store(state, action, reward, next_state, float(done))
            state, ep_return = next_state, ep_return + reward
            if buffer.size > agent.batch_size * agent.n_warmup_batches:
                agent.optimize_model(buffer.sample(agent.batch_size))
                agent.update_networks()
        print(f"episode {episode} return {ep_return:.2f}")
