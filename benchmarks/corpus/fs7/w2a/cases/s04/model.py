import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameEncoder(nn.Module):
    def __init__(self, channels, dim):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(channels, 16, 4, 2, 1), nn.GELU(),
            nn.Conv2d(16, 32, 4, 2, 1), nn.GELU(),
            nn.Flatten(), nn.LazyLinear(dim),
        )

    def forward(self, x):
        return self.net(x)


class LatentDynamics(nn.Module):
    def __init__(self, dim, action_dim, depth=2, heads=4):
        super().__init__()
        self.action_proj = nn.Linear(action_dim, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.out = nn.Linear(dim, dim)

    def forward(self, z, actions):
        h = z + self.action_proj(actions)
        t = h.shape[1]
        mask = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
        return self.out(self.blocks(h, mask=mask))


class WorldModel(L.LightningModule):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = FrameEncoder(cfg["channels"], cfg["dim"])
        self.dynamics = LatentDynamics(cfg["dim"], cfg["action_dim"])
        self.decoder = nn.Linear(cfg["dim"], cfg["channels"] * cfg["size"] * cfg["size"])

    def encode(self, frames):
        b, t = frames.shape[:2]
        return self.encoder(frames.flatten(0, 1)).view(b, t, -1)

    def training_step(self, batch, batch_idx):
        frames, actions = batch
        z = self.encode(frames)
        z_pred = self.dynamics(z[:, :-1], actions[:, :-1])
        latent_loss = F.mse_loss(z_pred, z[:, 1:].detach())
        recon = self.decoder(z).view_as(frames)
        recon_loss = F.mse_loss(recon, frames)
        loss = latent_loss + recon_loss
        if self.cfg["gradient_clip_norm"] is not None:
            grad_norm = torch.nn.utils.clip_grad_norm_(self.parameters(), self.cfg["gradient_clip_norm"])
            self.log("gradient_norm", grad_norm)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.cfg["lr"], weight_decay=0.01)
