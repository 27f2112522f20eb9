import random

import torch

from agent import DoubleDQN

N_STATES, N_ACTIONS, BATCH = 4, 2, 32


def fake_transitions(n):
    return (torch.randn(n, N_STATES), torch.randint(0, N_ACTIONS, (n,)), torch.randn(n),
            torch.randn(n, N_STATES), (torch.rand(n) < 0.1).float())


def main():
    random.seed(0)
    torch.manual_seed(0)
    agent = DoubleDQN(N_STATES, N_ACTIONS)
    memory = fake_transitions(256)
    for ep in range(20):
        idx = torch.randint(0, 256, (BATCH,))
        batch = tuple(t[idx] for t in memory)
        loss = agent.update(batch)
        if ep % 5 == 0:
            agent.sync_target()
            print(f"episode {ep}: loss {loss:.4f}")
    with torch.no_grad():
        s = torch.randn(8, N_STATES)
        gap = (agent.policy_net(s) - agent.target_net(s)).abs().max().item()
    print(f"max |Q_policy - Q_target| right after updates: {gap:.6f}")


if __name__ == "__main__":
    main()
