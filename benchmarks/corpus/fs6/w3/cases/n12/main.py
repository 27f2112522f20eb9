import random

import torch

from agent import DQNAgent, ReplayBuffer
from env import ChainEnv

CFG = {
    "episodes": 8, "max_steps": 30, "batch_size": 32, "buffer_size": 2000, "learning_starts": 64,
    "gamma": 0.95, "lr": 1e-3, "target_update": 25, "max_grad_norm": 10.0, "double_dqn": True,
    "eps_start": 1.0, "eps_end": 0.05, "eps_decay": 150,
}


def main():
    random.seed(0)
    torch.manual_seed(0)
    env = ChainEnv()
    agent = DQNAgent(env.length, 2, CFG)
    buffer = ReplayBuffer(CFG["buffer_size"])
    total_steps = 0
    for episode in range(CFG["episodes"]):
        obs = env.reset()
        ep_return, losses = 0.0, []
        for _ in range(CFG["max_steps"]):
            eps = CFG["eps_end"] + (CFG["eps_start"] - CFG["eps_end"]) * max(0.0, 1 - total_steps / CFG["eps_decay"])
            action = agent.act(obs, eps)
            nxt, reward, done = env.step(action)
            buffer.push(obs, action, reward, nxt, float(done))
            obs = nxt
            ep_return += reward
            total_steps += 1
            if len(buffer) >= CFG["learning_starts"]:
                losses.append(agent.update(buffer))
            if done:
                break
        mean_loss = sum(losses) / len(losses) if losses else 0.0
        print(f"episode {episode} return {ep_return:.2f} loss {mean_loss:.4f} updates {agent.updates}")


if __name__ == "__main__":
    main()
