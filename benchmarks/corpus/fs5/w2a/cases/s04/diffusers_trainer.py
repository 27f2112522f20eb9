import argparse

import torch
import torch.nn.functional as F

from unet import DDPMScheduler, TinyUNet


parser = argparse.ArgumentParser(description="Stable Diffusion finetuner (tiny)")
parser.add_argument("--lr", type=float, default=1e-4)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--batch_size", type=int, default=4)
parser.add_argument("--resolution", type=int, default=16)
parser.add_argument("--steps_per_epoch", type=int, default=3)
parser.add_argument("--clip_grad_norm", type=float, default=1.0)
parser.add_argument("--fp16", type=bool, default=True)
parser.add_argument("--seed", type=int, default=42)
args = parser.parse_args()


def get_batch(generator):
    latents = torch.randn(args.batch_size, 4, args.resolution, args.resolution, generator=generator)
    text_states = torch.randn(args.batch_size, 8, 16, generator=generator)
    return latents, text_states


def main():
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    unet = TinyUNet()
    noise_scheduler = DDPMScheduler()
    optimizer = torch.optim.AdamW(unet.parameters(), lr=args.lr, weight_decay=1e-2)
    scaler = torch.amp.GradScaler("cpu", enabled=args.fp16)

    global_step = 0
    unet.train()
    for epoch in range(args.epochs):
        for _ in range(args.steps_per_epoch):
            latents, encoder_hidden_states = get_batch(generator)
            noise = torch.randn_like(latents)
            timesteps = torch.randint(0, noise_scheduler.num_train_timesteps, (latents.shape[0],), generator=generator)
            noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)

            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.fp16):
                noise_pred = unet(noisy_latents, timesteps, encoder_hidden_states)
            loss = F.mse_loss(noise_pred.float(), noise, reduction="mean")

            scaler.scale(loss).backward()
            if args.clip_grad_norm is not None:
                torch.nn.utils.clip_grad_norm_(unet.parameters(), args.clip_grad_norm)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()
            global_step += 1
            print(f"epoch {epoch} step {global_step}: loss {loss.item():.5f}")
    return unet, optimizer, scaler


if __name__ == "__main__":
    unet, optimizer, scaler = main()
