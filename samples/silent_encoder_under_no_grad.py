"""The agent encodes observations under torch.no_grad(), so the encoder, stepped by its own
optimizer, never gets a gradient."""
import torch
import torch.nn as nn


class Agent:
    def __init__(self):
        self.encoder = nn.Linear(6, 8)
        self.policy = nn.Linear(8, 2)
        self.encoder_opt = torch.optim.Adam(self.encoder.parameters(), lr=1e-3)
        self.policy_opt = torch.optim.Adam(self.policy.parameters(), lr=1e-3)

    def encode(self, obs):
        with torch.no_grad():
            return torch.relu(self.encoder(obs))

    def update(self, obs, target):
        loss = nn.functional.mse_loss(self.policy(self.encode(obs)), target)
        self.encoder_opt.zero_grad()
        self.policy_opt.zero_grad()
        loss.backward()
        self.encoder_opt.step()
        self.policy_opt.step()
        return loss.item()


torch.manual_seed(0)
agent = Agent()
for step in range(3):
    print(f"step {step} loss {agent.update(torch.randn(16, 6), torch.randn(16, 2)):.4f}")
