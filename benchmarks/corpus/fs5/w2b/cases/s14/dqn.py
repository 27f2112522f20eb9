import torch
import torch.nn.functional as F

from policies import DQNPolicy
from utils import ReplayBuffer, polyak_update


class DQN:
    def __init__(self, env, learning_rate=1e-3, buffer_size=1000, learning_starts=32, batch_size=32,
                 tau=1.0, gamma=0.99, train_freq=4, gradient_steps=1, target_update_interval=50):
        self.env = env
        self.policy = DQNPolicy(env.obs_dim, env.n_actions, learning_rate)
        self.q_net, self.q_net_target = self.policy.q_net, self.policy.q_net_target
        self.replay_buffer = ReplayBuffer(buffer_size, env.obs_dim)
        self.learning_starts, self.batch_size = learning_starts, batch_size
        self.tau, self.gamma = tau, gamma
        self.train_freq, self.gradient_steps = train_freq, gradient_steps
        self.target_update_interval = target_update_interval
        self._n_calls = 0
        self.num_timesteps = 0

    def _on_step(self):
        self._n_calls += 1
        if self._n_calls % self.target_update_interval == 0:
            polyak_update(self.q_net.parameters(), self.q_net_target.parameters(), self.tau)

    def train(self, gradient_steps, batch_size):
        self.policy.set_training_mode(True)
        losses = []
        for _ in range(gradient_steps):
            obs, actions, next_obs, dones, rewards = self.replay_buffer.sample(batch_size)
            with torch.no_grad():
                next_q_values = self.q_net_target(next_obs).max(dim=1).values
                target_q_values = rewards + (1 - dones) * self.gamma * next_q_values
            current_q_values = self.q_net(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
            loss = F.smooth_l1_loss(current_q_values, target_q_values)
            losses.append(loss.item())
            self.policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.policy.parameters(), 10.0)
            self.policy.optimizer.step()
        return sum(losses) / len(losses)

    def predict(self, obs, eps):
        if torch.rand(()) < eps:
            return int(torch.randint(0, self.env.n_actions, ()))
        self.policy.set_training_mode(False)
        with torch.no_grad():
            return int(self.q_net._predict(obs.unsqueeze(0))[0])

    def learn(self, total_timesteps):
        obs = self.env.reset()
        for _ in range(total_timesteps):
            eps = max(0.05, 1.0 - self.num_timesteps / (0.5 * total_timesteps))
            action = self.predict(obs, eps)
            next_obs, reward, done = self.env.step(action)
            self.replay_buffer.add(obs, next_obs, action, reward, float(done))
            obs = self.env.reset() if done else next_obs
            self.num_timesteps += 1
            self._on_step()
            if self.num_timesteps > self.learning_starts and self.num_timesteps % self.train_freq == 0:
                loss = self.train(self.gradient_steps, self.batch_size)
                if self.num_timesteps % 100 == 0:
                    print(f"timesteps {self.num_timesteps} loss {loss:.4f}")
        return self
