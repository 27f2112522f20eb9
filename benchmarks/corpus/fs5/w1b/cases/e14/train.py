import torch
from accelerate import Accelerator
from accelerate.utils import set_seed

from env import GridTargetEnv
from policy import ActorCritic
from ppo import PPOConfig, PPOTrainer


def main():
    set_seed(0)
    accelerator = Accelerator(cpu=True)
    env = GridTargetEnv(n_envs=16, seed=0)
    model = ActorCritic(env.obs_dim, n_actions=3)
    trainer = PPOTrainer(PPOConfig(), model, env, accelerator)
    for it in range(5):
        loss, reward = trainer.step()
        accelerator.print(f"iter {it} loss {loss:.4f} reward {reward:.3f}")


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
