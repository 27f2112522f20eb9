import torch
import torch.nn as nn

from rotations import rotation_matrix_from_ortho6d, compute_geodesic_distance_from_two_matrices


class PoseRegressor(nn.Module):
    def __init__(self, in_dim=3 * 64, hidden=128):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.rot_head = nn.Linear(hidden, 6)
        nn.init.zeros_(self.rot_head.weight)
        with torch.no_grad():
            self.rot_head.bias.copy_(torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]))

    def forward(self, points):
        feat = self.backbone(points.flatten(1))
        return rotation_matrix_from_ortho6d(self.rot_head(feat))

    def compute_geodesic_loss(self, gt_r_matrix, out_r_matrix):
        theta = compute_geodesic_distance_from_two_matrices(gt_r_matrix, out_r_matrix)
        return theta.mean()
