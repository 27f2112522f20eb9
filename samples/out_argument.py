"""Writing into a preallocated buffer with out= while an argument requires grad."""
import torch

w = torch.randn(3, requires_grad=True)
buffer = torch.empty(3)
torch.add(w, 1.0, out=buffer)
