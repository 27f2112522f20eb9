import torch

from agent import CICAgent

OBS_SHAPE = (3, 32, 32)
SKILL_DIM = 8


def sample_batch(g, batch=32):
    obs = torch.randint(0, 256, (batch, *OBS_SHAPE), generator=g).float()
    skill = torch.rand(batch, SKILL_DIM, generator=g)
    shift = (skill[:, :3] * 40).view(batch, 3, 1, 1)
    next_obs = (obs + shift).clamp(0, 255)
    return obs, skill, next_obs


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(8)
    agent = CICAgent(OBS_SHAPE, SKILL_DIM, lr=1e-3)
    for step in range(25):
        metrics = agent.update(sample_batch(g))
        if step % 5 == 0:
            print(f"step {step:3d}  cic_loss {metrics['cic_loss']:.4f}")
    return agent


if __name__ == "__main__":
    agent = main()
