import torch

from agent import DDPGAgent

CFG = {"pi_lr": 1e-3, "q_lr": 1e-3, "gamma": 0.99, "polyak": 0.995, "batch_size": 64,
       "buffer_size": 2048, "updates": 40}


class ReplayBuffer:
    def __init__(self, obs_dim, act_dim, size):
        self.obs = torch.zeros(size, obs_dim)
        self.obs2 = torch.zeros(size, obs_dim)
        self.act = torch.zeros(size, act_dim)
        self.rew = torch.zeros(size)
        self.done = torch.zeros(size)
        self.ptr, self.size, self.max_size = 0, 0, size

    def store(self, o, a, r, o2, d):
        n = o.shape[0]
        idx = (torch.arange(n) + self.ptr) % self.max_size
        self.obs[idx] = o
        self.act[idx] = a
        self.rew[idx] = r
        self.obs2[idx] = o2
        self.done[idx] = d
        self.ptr = (self.ptr + n) % self.max_size
        self.size = min(self.size + n, self.max_size)

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,))
        return {"obs": self.obs[idx], "act": self.act[idx], "rew": self.rew[idx],
                "obs2": self.obs2[idx], "done": self.done[idx]}


def fake_env_step(obs, act):
    obs2 = obs + 0.1 * torch.tanh(act).sum(-1, keepdim=True) + 0.01 * torch.randn_like(obs)
    rew = -(obs2 ** 2).sum(-1)
    done = (rew < -20).float()
    return obs2, rew, done


def main():
    torch.manual_seed(0)
    obs_dim, act_dim = 6, 2
    agent = DDPGAgent(obs_dim, act_dim, CFG)
    buf = ReplayBuffer(obs_dim, act_dim, CFG["buffer_size"])

    obs = torch.randn(128, obs_dim)
    for step in range(CFG["updates"]):
        with torch.no_grad():
            act = agent.actor(obs)
            act += 0.1 * torch.randn_like(act)
            act.clamp_(-2.0, 2.0)
        obs2, rew, done = fake_env_step(obs, act)
        buf.store(obs, act, rew, obs2, done)
        obs = obs2
        lq, lpi = agent.update(buf.sample(CFG["batch_size"]))
        if step % 10 == 0:
            print(f"step {step:3d}  loss_q {lq:.4f}  loss_pi {lpi:.4f}")
    return agent


if __name__ == "__main__":
    agent = main()
