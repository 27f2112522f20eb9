"""detach() is not a copy: zeroing the detached alias changes the tensor tanh saved."""
import torch

x = torch.randn(4, requires_grad=True)
h = torch.tanh(x)
snapshot = h.detach()
snapshot.zero_()
h.sum().backward()
