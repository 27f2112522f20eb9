"""A Grad-CAM style hook on an activation computed during an evaluation pass."""
import torch
import torch.nn as nn

torch.manual_seed(0)
features = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU())
with torch.no_grad():
    activation = features(torch.randn(1, 3, 8, 8))
activation.register_hook(lambda grad: print(grad.shape))
