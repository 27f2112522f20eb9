import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameClassifier(nn.Module):
    def __init__(self, in_dim=40, hidden=128, num_labels=30):
        super().__init__()
        self.frontend = nn.Conv1d(in_dim, hidden, 3, padding=1)
        self.blocks = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.out = nn.Linear(hidden, num_labels)

    def forward(self, x):
        x = F.relu(self.frontend(x.transpose(1, 2))).transpose(1, 2)
        return self.out(self.blocks(x))

    def compute_loss(self, data, targets):
        logits = self(data)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), targets.reshape(-1))
