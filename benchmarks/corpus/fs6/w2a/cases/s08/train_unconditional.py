import argparse

import torch
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset

from unet import DDPMScheduler, TinyUNet


def parse_args(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--resolution", type=int, default=16)
    parser.add_argument("--train_batch_size", type=int, default=4)
    parser.add_argument("--num_epochs", type=int, default=1)
    parser.add_argument("--gradient_accumulation_steps", type=int, default=4)
    parser.add_argument("--learning_rate", type=float, default=1e-3)
    parser.add_argument("--mixed_precision", type=str, default="no")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def main(args):
    accelerator = Accelerator(mixed_precision=args.mixed_precision, cpu=True)
    torch.manual_seed(args.seed)

    model = TinyUNet()
    noise_scheduler = DDPMScheduler(num_train_timesteps=100)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, weight_decay=1e-6)

    images = torch.tanh(torch.randn(32, 3, args.resolution, args.resolution))
    train_dataloader = DataLoader(TensorDataset(images), batch_size=args.train_batch_size, shuffle=True)

    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)

    global_step = 0
    for epoch in range(args.num_epochs):
        model.train()
        for step, (clean_images,) in enumerate(train_dataloader):
            noise = torch.randn_like(clean_images)
            timesteps = torch.randint(0, noise_scheduler.num_train_timesteps, (clean_images.shape[0],))
            noisy_images = noise_scheduler.add_noise(clean_images, noise, timesteps)

            with accelerator.accumulate(model):
                noise_pred = model(noisy_images, timesteps)
                loss = F.mse_loss(noise_pred, noise)
                accelerator.backward(loss)
                accelerator.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                optimizer.zero_grad()

            if accelerator.sync_gradients:
                global_step += 1
            if step % 2 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} global_step {global_step}")
    accelerator.wait_for_everyone()
    return accelerator.unwrap_model(model)


if __name__ == "__main__":
    args = parse_args()
    model = main(args)
