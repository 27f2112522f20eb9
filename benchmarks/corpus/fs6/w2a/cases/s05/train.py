import torch

from agent import Agent

CFG = {
    "hidden": 32,
    "n_cities": 10,
    "batch": 16,
    "steps": 5,
    "lr_actor": 1e-3,
    "lr_critic": 1e-3,
    "max_grad_norm": 1.0,
}


def main():
    torch.manual_seed(0)
    agent = Agent(CFG)
    for step in range(CFG["steps"]):
        coords = torch.rand(CFG["batch"], CFG["n_cities"], 2)
        a, c, r = agent.update(coords)
        print(f"step {step}: actor {a:.4f} critic {c:.4f} length {r:.4f}")
    return agent


if __name__ == "__main__":
    agent = main()
