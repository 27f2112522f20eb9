"""A DQN whose target network is the online network itself (an alias, not a copy): the target
moves with every step and the sync copies the network onto itself."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Agent:
    def __init__(self):
        self.policy_net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
        self.target_net = self.policy_net  # an alias, not a copy
        self.optimizer = torch.optim.Adam(self.policy_net.parameters(), lr=1e-3)

    def update(self, s, a, r, s2):
        q = self.policy_net(s).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            target = r + 0.99 * self.target_net(s2).max(1)[0]
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


agent = Agent()
for step in range(3):
    agent.update(torch.randn(8, 4), torch.randint(0, 2, (8,)), torch.randn(8), torch.randn(8, 4))
    agent.target_net.load_state_dict(agent.policy_net.state_dict())
print("trained")
