"""Features cached under inference_mode, then used to train a head (functional call, see the README's limits)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
encoder, head = nn.Linear(8, 8), nn.Linear(8, 2)
with torch.inference_mode():
    cached = encoder(torch.randn(16, 8))
logits = nn.functional.linear(cached, head.weight, head.bias)
