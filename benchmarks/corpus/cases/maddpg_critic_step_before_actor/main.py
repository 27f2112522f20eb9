import torch

from maddpg import MADDPG

OBS_DIM, ACT_DIM, BATCH = 10, 2, 32


def sample_buffer():
    o = torch.randn(BATCH, OBS_DIM)
    u = torch.rand(BATCH, ACT_DIM) * 2 - 1
    r = torch.randn(BATCH, 1)
    o_next = torch.randn(BATCH, OBS_DIM)
    return o, u, r, o_next


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = MADDPG(OBS_DIM, ACT_DIM)
    for step in range(5):
        critic_loss, actor_loss = agent.train(*sample_buffer())
        print(f"step {step}: critic {critic_loss:.4f} actor {actor_loss:.4f}")
