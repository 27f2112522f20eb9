import torch
from torch import nn


class NeRFNetwork(nn.Module):
    def __init__(self, num_layers=3, hidden_dim=32, resolution=32):
        super().__init__()
        self.resolution = resolution
        layers = []
        for l in range(num_layers):
            in_dim = 2 if l == 0 else hidden_dim
            out_dim = 4 if l == num_layers - 1 else hidden_dim
            layers.append(nn.Linear(in_dim, out_dim))
        self.sigma_net = nn.ModuleList(layers)
        self.bg_color = nn.Parameter(torch.full((3,), 0.5))

    def render(self, pose_shift):
        lin = torch.linspace(-1, 1, self.resolution)
        grid = torch.stack(torch.meshgrid(lin, lin, indexing="ij"), -1).view(-1, 2) + pose_shift
        h = grid
        for l, layer in enumerate(self.sigma_net):
            h = layer(h)
            if l != len(self.sigma_net) - 1:
                h = torch.relu(h)
        rgb, sigma = torch.sigmoid(h[:, :3]), torch.sigmoid(h[:, 3:])
        image = sigma * rgb + (1 - sigma) * self.bg_color
        image = image.view(1, self.resolution, self.resolution, 3).permute(0, 3, 1, 2)
        return image, sigma.view(1, -1)
