"""masked_fill_ clips a tensor that pow() saved: the version check fires at backward."""
import torch

torch.manual_seed(0)
logits = torch.randn(6, requires_grad=True)
scores = logits * 2
penalty = scores.pow(2).sum()
scores.masked_fill_(scores < 0, 0.0)
loss = scores.sum() + penalty
loss.backward()
