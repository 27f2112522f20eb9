import argparse

import torch
import torch.nn.functional as F

from unet import TinyUNet


def get_args():
    parser = argparse.ArgumentParser(description="EveryDream-style fine-tuning")
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--max_steps", type=int, default=12)
    parser.add_argument("--amp", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--clip_grad_norm", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=555)
    return parser.parse_args()


def make_noise_schedule(steps=1000):
    betas = torch.linspace(1e-4, 0.02, steps)
    return torch.cumprod(1.0 - betas, dim=0)


def get_latents(batch_size):
    return torch.randn(batch_size, 4, 16, 16) * 0.18215


def compute_loss(unet, latents, alphas_cumprod):
    noise = torch.randn_like(latents)
    t = torch.randint(0, alphas_cumprod.shape[0], (latents.shape[0],))
    a = alphas_cumprod[t].sqrt()[:, None, None, None]
    s = (1 - alphas_cumprod[t]).sqrt()[:, None, None, None]
    noisy = a * latents + s * noise
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.amp):
        pred = unet(noisy, t)
    return F.mse_loss(pred.float(), noise)


def main():
    torch.manual_seed(args.seed)
    unet = TinyUNet()
    optimizer = torch.optim.AdamW(unet.parameters(), lr=args.lr, weight_decay=1e-2)
    scaler = torch.amp.GradScaler("cpu", init_scale=2 ** 16, enabled=args.amp)
    alphas_cumprod = make_noise_schedule()
    unet.train()
    for step in range(args.max_steps):
        latents = get_latents(args.batch_size)
        loss = compute_loss(unet, latents, alphas_cumprod)
        scaler.scale(loss).backward()
        if args.clip_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(unet.parameters(), args.clip_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        if step % 4 == 0:
            print(f"step {step} loss {loss.item():.4f} scale {scaler.get_scale():.0f}")
    return unet, scaler


if __name__ == "__main__":
    args = get_args()
    unet, scaler = main()
