import torch
import torch.nn as nn


class GrowingMLP(nn.Module):
    def __init__(self, in_dim=10, hidden=8, out_dim=2):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, out_dim)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

    @torch.no_grad()
    def widen(self, new_hidden, noise=1e-3):
        old_h = self.fc1.out_features
        idx = torch.cat([torch.arange(old_h), torch.randint(0, old_h, (new_hidden - old_h,))])
        counts = torch.bincount(idx, minlength=old_h).float()
        fc1 = nn.Linear(self.fc1.in_features, new_hidden)
        fc2 = nn.Linear(new_hidden, self.fc2.out_features)
        fc1.weight.copy_(self.fc1.weight[idx])
        fc1.bias.copy_(self.fc1.bias[idx])
        fc2.weight.copy_(self.fc2.weight[:, idx] / counts[idx])
        fc2.weight.add_(noise * torch.randn_like(fc2.weight))
        fc2.bias.copy_(self.fc2.bias)
        self.fc1, self.fc2 = fc1, fc2
