import torch
import torch.nn as nn
import torch.nn.functional as F


class PPOAgent(nn.Module):
    def __init__(self, input_shape, args):
        super().__init__()
        self.fc1 = nn.Linear(input_shape, args["hidden_dim"])
        self.fc2 = nn.Linear(args["hidden_dim"], args["hidden_dim"])
        self.fc3 = nn.Linear(args["hidden_dim"], args["n_actions"])

    def forward(self, inputs):
        x = F.relu(self.fc1(inputs))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class CentralVCritic(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.n_agents = args["n_agents"]
        self.fc1 = nn.Linear(args["state_dim"], args["hidden_dim"])
        self.fc2 = nn.Linear(args["hidden_dim"], args["hidden_dim"])
        self.fc3 = nn.Linear(args["hidden_dim"], 1)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        x = F.relu(self.fc2(x))
        v = self.fc3(x)
        return v.expand(*v.shape[:-1], self.n_agents)
