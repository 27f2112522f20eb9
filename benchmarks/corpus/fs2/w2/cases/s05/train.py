import random

import torch
import torch.nn as nn

from losses import boxes_to_masks, masked_denoising_loss

torch.manual_seed(0)
random.seed(0)

B, C, T, H, W = 2, 4, 4, 8, 8
NUM_TIMESTEPS = 1000


class TinyVideoDenoiser(nn.Module):
    def __init__(self, channels=C, hidden=16):
        super().__init__()
        self.t_embed = nn.Embedding(NUM_TIMESTEPS, hidden)
        self.inp = nn.Conv3d(channels, hidden, 3, padding=1)
        self.mid = nn.Conv3d(hidden, hidden, 3, padding=1)
        self.out = nn.Conv3d(hidden, channels, 3, padding=1)

    def forward(self, x, t):
        h = torch.relu(self.inp(x) + self.t_embed(t)[:, :, None, None, None])
        h = torch.relu(self.mid(h))
        return self.out(h)


betas = torch.linspace(1e-4, 0.02, NUM_TIMESTEPS)
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)


def add_noise(latents, noise, t):
    a = alphas_cumprod[t].sqrt()[:, None, None, None, None]
    s = (1.0 - alphas_cumprod[t]).sqrt()[:, None, None, None, None]
    return a * latents + s * noise


def detect_faces(num_videos, frames, face_rate=0.5):
    boxes = []
    for _ in range(num_videos):
        frame_boxes = []
        for _ in range(frames):
            if random.random() < face_rate:
                x0, y0 = random.randint(0, 3), random.randint(0, 3)
                frame_boxes.append((x0, y0, x0 + 4, y0 + 4))
            else:
                frame_boxes.append(None)
        boxes.append(frame_boxes)
    return boxes


model = TinyVideoDenoiser()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(8):
    latents = torch.randn(B, C, T, H, W)
    noise = torch.randn_like(latents)
    timesteps = torch.randint(0, NUM_TIMESTEPS, (B,))
    noisy = add_noise(latents, noise, timesteps)
    masks = boxes_to_masks(detect_faces(B, T), T, H, W)

    model_pred = model(noisy, timesteps)
    loss = masked_denoising_loss(model_pred, noise, masks)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
