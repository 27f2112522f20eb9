import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageEncoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.GELU(),
            nn.Conv2d(16, 32, 3, 2, 1), nn.GELU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, dim),
        )

    def forward(self, x):
        return self.net(x)


class ImageAdapter(nn.Module):
    def __init__(self, dim=32, cond_dim=16, num_tokens=4):
        super().__init__()
        self.num_tokens = num_tokens
        self.cond_dim = cond_dim
        self.proj = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, cond_dim * num_tokens))
        self.norm = nn.LayerNorm(cond_dim)

    def forward(self, image_embeds):
        tokens = self.proj(image_embeds).view(-1, self.num_tokens, self.cond_dim)
        return self.norm(tokens)


class Denoiser(nn.Module):
    def __init__(self, ch=3, width=32, cond_dim=16):
        super().__init__()
        self.conv_in = nn.Conv2d(ch, width, 3, padding=1)
        self.cond = nn.Linear(cond_dim, width)
        self.temb = nn.Linear(1, width)
        self.conv_mid = nn.Conv2d(width, width, 3, padding=1)
        self.conv_out = nn.Conv2d(width, ch, 3, padding=1)

    def forward(self, x, t, cond_tokens):
        h = F.silu(self.conv_in(x))
        c = self.cond(cond_tokens.mean(dim=1)) + self.temb(t[:, None].float())
        h = F.silu(self.conv_mid(h + c[:, :, None, None]))
        return self.conv_out(h)


class FaceEmbedder(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.PReLU(16),
            nn.Conv2d(16, 32, 3, 2, 1), nn.PReLU(32),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, dim),
        )

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


def load_models(seed=0):
    torch.manual_seed(seed)
    image_encoder = ImageEncoder()
    image_adapter = ImageAdapter()
    unet = Denoiser()
    face_model = FaceEmbedder()
    for module in (image_encoder, unet, face_model):
        module.requires_grad_(False)
    return image_encoder, image_adapter, unet, face_model
