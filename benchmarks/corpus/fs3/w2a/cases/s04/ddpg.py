import numpy as np
import torch

from networks import FCDP, FCQV


class ReplayBuffer:
    def __init__(self, max_size, state_dim, action_dim):
        self.ss = np.zeros((max_size, state_dim), dtype=np.float32)
        self.as_ = np.zeros((max_size, action_dim), dtype=np.float32)
        self.rs = np.zeros((max_size, 1), dtype=np.float32)
        self.ps = np.zeros((max_size, state_dim), dtype=np.float32)
        self.ds = np.zeros((max_size, 1), dtype=np.float32)
        self.max_size, self.idx, self.size = max_size, 0, 0

    def store(self, s, a, r, p, d):
        i = self.idx
        self.ss[i], self.as_[i], self.rs[i], self.ps[i], self.ds[i] = s, a, r, p, d
        self.idx = (self.idx + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample(self, batch_size):
        idxs = np.random.choice(self.size, batch_size, replace=False)
        return [torch.from_numpy(x[idxs]) for x in (self.ss, self.as_, self.rs, self.ps, self.ds)]


class DDPG:
    def __init__(self, state_dim, action_bounds, gamma=0.99, tau=0.005, lr=3e-4, n_warmup_batches=5, batch_size=32):
        self.state_dim, self.action_bounds = state_dim, action_bounds
        self.gamma, self.tau, self.lr = gamma, tau, lr
        self.n_warmup_batches, self.batch_size = n_warmup_batches, batch_size

    def setup(self):
        action_dim = len(self.action_bounds[0])
        self.target_value_model = FCQV(self.state_dim, action_dim)
        self.online_value_model = FCQV(self.state_dim, action_dim)
        self.target_policy_model = FCDP(self.state_dim, self.action_bounds)
        self.online_policy_model = FCDP(self.state_dim, self.action_bounds)
        self.update_networks(tau=1.0)
        self.value_optimizer = torch.optim.Adam(self.online_value_model.parameters(), lr=self.lr)
        self.policy_optimizer = torch.optim.Adam(self.online_policy_model.parameters(), lr=self.lr)

    def optimize_model(self, experiences):
        states, actions, rewards, next_states, is_terminals = experiences
        argmax_a_q_sp = self.target_policy_model(next_states)
        max_a_q_sp = self.target_value_model(next_states, argmax_a_q_sp)
        target_q_sa = rewards + self.gamma * max_a_q_sp * (1 - is_terminals)
        q_sa = self.online_value_model(states, actions)
        value_loss = (q_sa - target_q_sa.detach()).pow(2).mul(0.5).mean()
        self.value_optimizer.zero_grad()
        value_loss.backward()
        self.value_optimizer.step()

        argmax_a_q_s = self.online_policy_model(states)
        max_a_q_s = self.online_value_model(states, argmax_a_q_s)
        policy_loss = -max_a_q_s.mean()
        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()
        return value_loss.item(), policy_loss.item()

    def update_networks(self, tau=None):
        tau = self.tau if tau is None else tau
        pairs = ((self.target_value_model, self.online_value_model),
                 (self.target_policy_model, self.online_policy_model))
        for target_model, online_model in pairs:
            for target, online in zip(target_model.parameters(), online_model.parameters()):
                mixed_weights = (1.0 - self.tau) * target.data + self.tau * online.data
                target.data.copy_(mixed_weights)
