"""An adversarial image computed from the input, then marked as requiring grad."""
import torch

image = torch.rand(1, 3, 8, 8, requires_grad=True)
noise = torch.randn_like(image) * 0.01
adversarial = (image + noise).clamp(0, 1)
adversarial.requires_grad = True
