"""A learnable offset created from integers."""
import torch

offsets = torch.tensor([1, 2, 3])
offsets.requires_grad_()
