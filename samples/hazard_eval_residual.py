"""An evaluation pass (no backward) through a block whose in-place residual add overwrites the
tanh's output, which tanh saved for its backward. Plain Python runs it fine; the same block
in training raises "modified by an inplace operation". `gradscope check` fails it now."""
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        h = torch.tanh(self.fc(x))
        h += x  # in-place residual: overwrites what tanh saved
        return h


torch.manual_seed(0)
model = nn.Sequential(Block(8), Block(8), nn.Linear(8, 1))
model.eval()
scores = model(torch.randn(16, 8))  # evaluation without torch.no_grad(): a graph is built
print(f"mean score {scores.mean().item():.4f}")
