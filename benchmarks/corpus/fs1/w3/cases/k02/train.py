import torch

from ddpg import DDPGAgent, ReplayBuffer
from networks import PointMass

config = dict(obs_dim=3, act_dim=3, episodes=6, start_steps=100, batch_size=64, update_every=10)

if __name__ == "__main__":
    torch.manual_seed(0)
    env = PointMass(dim=config["obs_dim"])
    agent = DDPGAgent(config["obs_dim"], config["act_dim"])
    buffer = ReplayBuffer(config["obs_dim"], config["act_dim"], size=10_000)

    total_steps = 0
    for episode in range(config["episodes"]):
        obs, ep_ret, done = env.reset(), 0.0, False
        while not done:
            if total_steps < config["start_steps"]:
                action = torch.rand(config["act_dim"]) * 2 - 1
            else:
                action = agent.act(obs)
            next_obs, reward, done = env.step(action)
            buffer.store(obs, action, reward, next_obs, done)
            obs, ep_ret = next_obs, ep_ret + reward
            total_steps += 1

            if total_steps >= config["start_steps"] and total_steps % config["update_every"] == 0:
                for _ in range(config["update_every"]):
                    q_loss, pi_loss = agent.update(buffer.sample(config["batch_size"]))
        print(f"episode {episode} return {ep_ret:.2f}")
