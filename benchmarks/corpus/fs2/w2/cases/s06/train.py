import torch
import torch.nn as nn
from accelerate import Accelerator

from trainer import PPOTrainer

ARGS = {
    "rollout_batch_size": 32,
    "step_batch_size": 8,
    "gradient_accumulation_steps": 4,
    "noptepochs": 2,
    "cliprange": 0.2,
    "vf_coef": 0.1,
    "max_grad_norm": 1.0,
    "lr": 3e-3,
    "total_steps": 4,
}


class Policy(nn.Module):
    def __init__(self, obs_dim=12, n_actions=4, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h)


torch.manual_seed(0)
accelerator = Accelerator(gradient_accumulation_steps=ARGS["gradient_accumulation_steps"], cpu=True)
policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=ARGS["lr"])
policy, optimizer = accelerator.prepare(policy, optimizer)
trainer = PPOTrainer(ARGS, policy, optimizer, accelerator)

for step in range(ARGS["total_steps"]):
    queries = torch.randn(ARGS["rollout_batch_size"], 12)
    rollouts = trainer.rollout(queries)
    loss = trainer.step_with_rollouts(rollouts)
    reward = rollouts["returns"].mean().item()
    print(f"step {step}: ppo loss {loss:.4f}  reward {reward:.3f}")
