"""Detaching one layer of an LSTM state in place: a view cannot be detached in place."""
import torch
import torch.nn as nn

torch.manual_seed(0)
lstm = nn.LSTM(4, 8, num_layers=2)
out, (hidden, cell) = lstm(torch.randn(5, 1, 4))
hidden[0].detach_()
