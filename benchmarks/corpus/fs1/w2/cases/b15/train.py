import torch
import torch.nn.functional as F
from accelerate import Accelerator

from ema import EMAModel
from model import TinyDenoiser

NUM_TRAIN_TIMESTEPS = 100
BETAS = torch.linspace(1e-4, 0.02, NUM_TRAIN_TIMESTEPS)
ALPHAS_CUMPROD = torch.cumprod(1 - BETAS, dim=0)


def add_noise(x0, noise, t):
    a = ALPHAS_CUMPROD[t].sqrt().unsqueeze(1)
    s = (1 - ALPHAS_CUMPROD[t]).sqrt().unsqueeze(1)
    return a * x0 + s * noise


def two_moons(g, n):
    theta = torch.rand(n, generator=g) * torch.pi
    side = torch.randint(0, 2, (n,), generator=g).float()
    x = torch.stack([torch.cos(theta) + side, torch.sin(theta) * (1 - 2 * side) + 0.5 * side], 1)
    return x + 0.05 * torch.randn(n, 2, generator=g)


@torch.no_grad()
def evaluate(accelerator, model, ema_model, g):
    unet = accelerator.unwrap_model(model)
    ema_model.copy_to(unet.parameters())
    unet.eval()
    x0 = two_moons(g, 256)
    noise = torch.randn(x0.shape, generator=g)
    t = torch.randint(0, NUM_TRAIN_TIMESTEPS, (256,), generator=g)
    val = F.mse_loss(unet(add_noise(x0, noise, t), t), noise).item()
    unet.train()
    return val


def main():
    accelerator = Accelerator(cpu=True)
    torch.manual_seed(0)
    model = TinyDenoiser()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    model, optimizer = accelerator.prepare(model, optimizer)
    ema_model = EMAModel(accelerator.unwrap_model(model).parameters(), decay=0.995)
    g = torch.Generator().manual_seed(1)
    for epoch in range(3):
        for step in range(20):
            x0 = two_moons(g, 64)
            noise = torch.randn(x0.shape, generator=g)
            t = torch.randint(0, NUM_TRAIN_TIMESTEPS, (64,), generator=g)
            loss = F.mse_loss(model(add_noise(x0, noise, t), t), noise)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            ema_model.step(model.parameters())
        val = evaluate(accelerator, model, ema_model, g)
        print(f"epoch {epoch}  train loss {loss.item():.4f}  ema val loss {val:.4f}")
    return model, ema_model


if __name__ == "__main__":
    model, ema_model = main()
