import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class ResidualMLPBlock(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.norm = nn.LayerNorm(d_in)
        self.fc = nn.Linear(d_in, d_out)
        self.act = nn.GELU()
        self.skip = nn.Linear(d_in, d_out) if d_in != d_out else nn.Identity()

    def forward(self, x):
        return self.skip(x) + self.act(self.fc(self.norm(x)))


class AutoEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        dims = (cfg.in_dim,) + tuple(cfg.widths)
        self.encoder = nn.ModuleList([ResidualMLPBlock(a, b) for a, b in zip(dims[:-1], dims[1:])])
        rdims = dims[::-1]
        self.decoder = nn.ModuleList([ResidualMLPBlock(a, b) for a, b in zip(rdims[:-1], rdims[1:])])
        self.gradient_checkpointing = False
        self._ckpt_kwargs = {}

    def gradient_checkpointing_enable(self, gradient_checkpointing_kwargs=None):
        self.gradient_checkpointing = True
        self._ckpt_kwargs = dict(gradient_checkpointing_kwargs or {})

    def _run(self, blocks, x):
        for blk in blocks:
            if self.gradient_checkpointing and self.training:
                x = checkpoint(blk, x, **self._ckpt_kwargs)
            else:
                x = blk(x)
        return x

    def forward(self, x):
        z = self._run(self.encoder, x)
        return self._run(self.decoder, z)
