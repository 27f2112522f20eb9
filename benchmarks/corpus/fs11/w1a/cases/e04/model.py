import torch
import torch.nn.functional as F
from torch import nn


class NetVLADLoupe(nn.Module):
    def __init__(self, feature_size, cluster_size, output_dim):
        super().__init__()
        self.cluster_weights = nn.Parameter(torch.randn(feature_size, cluster_size) / feature_size ** 0.5)
        self.cluster_weights2 = nn.Parameter(torch.randn(1, feature_size, cluster_size) / feature_size ** 0.5)
        self.hidden1_weights = nn.Parameter(torch.randn(cluster_size * feature_size, output_dim) / feature_size ** 0.5)
        self.bn1 = nn.BatchNorm1d(cluster_size)

    def forward(self, x):
        b, n, d = x.shape
        activation = torch.matmul(x, self.cluster_weights)
        activation = self.bn1(activation.view(-1, activation.shape[-1])).view(b, n, -1)
        activation = F.softmax(activation, dim=-1)
        a_sum = activation.sum(-2, keepdim=True)
        a = a_sum * self.cluster_weights2
        vlad = torch.matmul(activation.transpose(2, 1), x).transpose(2, 1) - a
        vlad = F.normalize(vlad, dim=1).reshape(b, -1)
        vlad = F.normalize(vlad, dim=1)
        return F.normalize(torch.matmul(vlad, self.hidden1_weights), dim=1)


class PointNetfeat(nn.Module):
    def __init__(self, out_dim=32):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Conv2d(1, 16, (1, 3)), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, out_dim, 1), nn.BatchNorm2d(out_dim), nn.ReLU(),
        )

    def forward(self, x):
        x = self.mlp(x)
        return x.squeeze(-1).transpose(1, 2)


class PointNetVlad(nn.Module):
    def __init__(self, feature_size=32, cluster_size=8, output_dim=16):
        super().__init__()
        self.point_net = PointNetfeat(feature_size)
        self.net_vlad = NetVLADLoupe(feature_size, cluster_size, output_dim)

    def forward(self, x):
        return self.net_vlad(self.point_net(x))
