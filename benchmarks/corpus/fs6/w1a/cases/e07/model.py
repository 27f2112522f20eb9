import torch
import torch.nn as nn
import torch.nn.functional as F

from geometry import quaternion_multiply, quaternion_to_matrix
from ipa import IPABlock


class IPATransformer(nn.Module):
    def __init__(self, dim, depth, num_tokens=None, detach_rotations=True, **kwargs):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim) if num_tokens is not None else None
        self.layers = nn.ModuleList(
            nn.ModuleList([IPABlock(dim, **kwargs), nn.Linear(dim, 6)]) for _ in range(depth)
        )
        self.detach_rotations = detach_rotations
        self.to_points = nn.Linear(dim, 3)

    def forward(self, single_repr, translations=None, quaternions=None):
        x = single_repr
        if self.token_emb is not None:
            x = self.token_emb(x)
        b, n = x.shape[:2]
        if quaternions is None:
            quaternions = torch.tensor([1.0, 0.0, 0.0, 0.0]).expand(b, n, 4)
        if translations is None:
            translations = torch.zeros(b, n, 3)

        for block, to_update in self.layers:
            rotations = quaternion_to_matrix(quaternions)
            if self.detach_rotations:
                rotations.detach_()

            x = block(x, rotations=rotations, translations=translations)

            quaternion_update, translation_update = to_update(x).chunk(2, dim=-1)
            quaternion_update = F.pad(quaternion_update, (1, 0), value=1.0)
            quaternion_update = quaternion_update / quaternion_update.norm(dim=-1, keepdim=True)
            quaternions = quaternion_multiply(quaternions, quaternion_update)
            translations = translations + torch.einsum("bnc,bncr->bnr", translation_update, rotations)

        points_local = self.to_points(x)
        rotations = quaternion_to_matrix(quaternions)
        return torch.einsum("bnc,bncd->bnd", points_local, rotations) + translations
