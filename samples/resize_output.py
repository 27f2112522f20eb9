"""Resizing a model output in place (a metric buffer reused)."""
import torch
import torch.nn as nn

model = nn.Linear(4, 2)
scores = model(torch.randn(3, 4))
scores.resize_(6)
