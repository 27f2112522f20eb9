import torch

from policy import QMIX

ARGS = {
    "n_agents": 3,
    "n_actions": 5,
    "obs_dim": 12,
    "state_dim": 20,
    "rnn_hidden": 32,
    "mix_embed": 16,
    "lr": 5e-4,
    "gamma": 0.99,
    "grad_norm_clip": 10.0,
    "target_update_cycle": 5,
    "batch_size": 16,
    "episode_limit": 8,
    "train_steps": 30,
}


class ReplayBuffer:
    def __init__(self, args, size=256):
        g = torch.Generator().manual_seed(1)
        n, t, a = args["n_agents"], args["episode_limit"], args["n_actions"]
        self.o = torch.randn(size, t, n, args["obs_dim"], generator=g)
        self.o_next = torch.randn(size, t, n, args["obs_dim"], generator=g)
        self.s = torch.randn(size, t, args["state_dim"], generator=g)
        self.s_next = torch.randn(size, t, args["state_dim"], generator=g)
        self.u = torch.randint(0, a, (size, t, n, 1), generator=g)
        self.r = torch.randn(size, t, generator=g)
        self.terminated = torch.zeros(size, t)
        self.terminated[:, -1] = 1.0
        self.size = size

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,))
        return {k: getattr(self, k)[idx] for k in ("o", "o_next", "s", "s_next", "u", "r", "terminated")}


def run(args=ARGS):
    torch.manual_seed(0)
    policy = QMIX(args)
    buffer = ReplayBuffer(args)
    for train_step in range(args["train_steps"]):
        loss = policy.learn(buffer.sample(args["batch_size"]), train_step)
        if train_step % 10 == 0:
            print(f"train_step {train_step:4d} td_loss {loss:.4f}")
    return policy


if __name__ == "__main__":
    run()
