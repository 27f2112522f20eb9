import torch
import torch.nn as nn

from common import deform_with_mvc


class PointEncoder(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, pts):
        return self.mlp(pts).max(dim=1)[0]


class NetworkFull(nn.Module):
    def __init__(self, n_cage=12, n_points=256, dim=64):
        super().__init__()
        self.n_cage = n_cage
        self.template_cage = nn.Parameter(torch.randn(1, n_cage, 3) * 0.6)
        self.source_encoder = PointEncoder(dim)
        self.target_encoder = PointEncoder(dim)
        self.nc_decoder = nn.Sequential(nn.Linear(2 * dim, 128), nn.ReLU(), nn.Linear(128, n_cage * 3))
        self.influence_predictor = nn.Sequential(nn.Linear(3 + dim, 64), nn.ReLU(), nn.Linear(64, n_cage))

    def forward(self, source_shape, target_shape):
        B, N, _ = source_shape.shape
        s_code = self.source_encoder(source_shape)
        t_code = self.target_encoder(target_shape)
        cage = self.template_cage.expand(B, -1, -1)
        offset = self.nc_decoder(torch.cat([s_code, t_code], dim=1)).view(B, self.n_cage, 3)
        new_cage = cage + offset
        influence_in = torch.cat([source_shape, s_code.unsqueeze(1).expand(-1, N, -1)], dim=2)
        influence = 0.1 * torch.tanh(self.influence_predictor(influence_in))
        deformed, weights = deform_with_mvc(cage, new_cage, source_shape, influence=influence, verbose=True)
        return {"cage": cage, "new_cage": new_cage, "deformed": deformed, "weight": weights}
