import torch
import torch.nn as nn
import torch.nn.functional as F


class VisionStem(nn.Module):
    def __init__(self, in_ch=3, dim=64, patch=8):
        super().__init__()
        self.proj = nn.Conv2d(in_ch, dim, kernel_size=patch, stride=patch)
        self.norm = nn.LayerNorm(dim)

    def forward(self, images):
        x = self.proj(images).flatten(2).transpose(1, 2)
        return self.norm(x)


class ActionHead(nn.Module):
    def __init__(self, dim=64, action_dim=7, chunk=4):
        super().__init__()
        self.chunk = chunk
        self.action_dim = action_dim
        self.mlp = nn.Sequential(
            nn.Linear(dim, dim * 2),
            nn.GELU(),
            nn.Linear(dim * 2, action_dim * chunk),
        )

    def forward(self, feats):
        out = self.mlp(feats)
        return out.view(feats.shape[0], self.chunk, self.action_dim)


class QwenLiteVLA(nn.Module):
    def __init__(self, vocab=128, dim=64, action_dim=7, chunk=4):
        super().__init__()
        self.vision = VisionStem(dim=dim)
        self.tok = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=dim * 2,
                                           dropout=0.0, batch_first=True)
        self.fuser = nn.TransformerEncoder(layer, num_layers=2)
        self.action_head = ActionHead(dim, action_dim, chunk)

    def forward(self, images, instr_ids):
        v = self.vision(images)
        t = self.tok(instr_ids)
        h = self.fuser(torch.cat([v, t], dim=1))
        return self.action_head(h.mean(dim=1))

    def compute_loss(self, batch):
        images, instr_ids, actions = batch
        pred = self(images, instr_ids)
        return F.l1_loss(pred, actions)
