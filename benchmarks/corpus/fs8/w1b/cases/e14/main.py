import random

import numpy as np
import torch

from agent import Agent
from env import GridWalk

HPARAMS = {"n_games": 5, "lr": 5e-4, "gamma": 0.99, "mem_size": 256, "batch_size": 8, "seed": 0}


def main(hp):
    random.seed(hp["seed"])
    np.random.seed(hp["seed"])
    torch.manual_seed(hp["seed"])
    env = GridWalk(seed=hp["seed"])
    agent = Agent(env.observation_dim, env.n_actions, lr=hp["lr"], gamma=hp["gamma"],
                  mem_size=hp["mem_size"], batch_size=hp["batch_size"])
    for game in range(hp["n_games"]):
        observation = env.reset()
        done, score = False, 0.0
        while not done:
            action = agent.choose_action(observation)
            observation_, reward, done = env.step(action)
            agent.remember(observation, action, reward, observation_, done)
            agent.learn()
            observation = observation_
            score += reward
        print(f"game {game} score {score:.2f}")


if __name__ == "__main__":
    main(HPARAMS)
