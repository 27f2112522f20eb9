import torch

from ddpg import DDPG
from models import Actor, Critic

N_STATES, N_ACTIONS, BATCH = 3, 1, 32
cfg = {"device": "cpu", "critic_lr": 1e-3, "actor_lr": 1e-4, "gamma": 0.99, "tau": 1e-2}


def sample(memory, batch_size):
    idx = torch.randint(0, memory[0].shape[0], (batch_size,))
    return tuple(t[idx] for t in memory)


def main():
    torch.manual_seed(0)
    agent = DDPG({"actor": Actor(N_STATES, N_ACTIONS), "critic": Critic(N_STATES, N_ACTIONS)}, cfg)
    memory = (torch.randn(500, N_STATES), torch.rand(500, N_ACTIONS) * 2 - 1, torch.randn(500, 1),
              torch.randn(500, N_STATES), (torch.rand(500, 1) < 0.05).float())
    for step in range(30):
        value_loss, policy_loss = agent.update(sample(memory, BATCH))
        if step % 10 == 0:
            print(f"step {step}: value loss {value_loss:.4f}  policy loss {policy_loss:.4f}")
    with torch.no_grad():
        s, a = torch.randn(16, N_STATES), torch.rand(16, N_ACTIONS) * 2 - 1
        gap = (agent.critic(s, a) - agent.target_critic(s, a)).abs().max().item()
    print(f"max |Q - Q_target| after 30 soft updates with tau={cfg['tau']}: {gap:.6f}")


if __name__ == "__main__":
    main()
