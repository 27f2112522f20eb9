import torch
import torch.nn as nn


class NodeEmbedder(nn.Module):
    def __init__(self, c_s, c_pos=16):
        super().__init__()
        self.c_pos = c_pos
        self.linear = nn.Linear(c_pos + 1, c_s)

    def forward(self, num_res, t):
        pos = torch.arange(num_res, dtype=torch.float32)
        freqs = torch.exp(-torch.arange(0, self.c_pos, 2, dtype=torch.float32) / self.c_pos * 4.0)
        ang = pos[:, None] * freqs[None]
        pe = torch.cat([ang.sin(), ang.cos()], dim=-1)
        b = t.shape[0]
        feats = torch.cat([pe[None].expand(b, -1, -1), t[:, None, None].expand(b, num_res, 1)], dim=-1)
        return self.linear(feats)


class FlowModel(nn.Module):
    def __init__(self, c_s=64, n_blocks=3):
        super().__init__()
        self.node_embedder = NodeEmbedder(c_s)
        self.trans_in = nn.Linear(3, c_s)
        self.rot_in = nn.Linear(9, c_s)
        self.trunk = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(c_s), nn.Linear(c_s, c_s), nn.GELU(), nn.Linear(c_s, c_s)) for _ in range(n_blocks)
        )
        self.trans_out = nn.Linear(c_s, 3)
        self.rot_out = nn.Linear(c_s, 6)

    def forward(self, trans_t, rotmats_t, t):
        b, n, _ = trans_t.shape
        s = self.node_embedder(n, t) + self.trans_in(trans_t) + self.rot_in(rotmats_t.reshape(b, n, 9))
        for block in self.trunk:
            s = s + block(s)
        pred_trans = trans_t + self.trans_out(s)
        a, c = self.rot_out(s).split(3, dim=-1)
        x = nn.functional.normalize(a, dim=-1)
        z = nn.functional.normalize(torch.cross(x, c, dim=-1), dim=-1)
        y = torch.cross(z, x, dim=-1)
        pred_rotmats = torch.stack([x, y, z], dim=-1)
        return {"pred_trans": pred_trans, "pred_rotmats": pred_rotmats}
