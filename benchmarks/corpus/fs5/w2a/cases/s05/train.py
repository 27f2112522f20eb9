import argparse

import torch
import torch.nn.functional as F

import compat  # noqa: F401
from accelerate import Accelerator
from accelerate.utils import set_seed

from models.infer import run_inference
from models.loss import FaceLoss
from models.modeling_utils import load_models


def parse_args():
    parser = argparse.ArgumentParser(description="PhotoVerse-style adapter training")
    parser.add_argument("--learning_rate", type=float, default=1e-4)
    parser.add_argument("--train_batch_size", type=int, default=4)
    parser.add_argument("--resolution", type=int, default=16)
    parser.add_argument("--max_train_steps", type=int, default=6)
    parser.add_argument("--face_loss", type=str, default="arcface", choices=["arcface", "facenet"])
    parser.add_argument("--face_loss_weight", type=float, default=0.5)
    parser.add_argument("--face_loss_sample_ratio", type=float, default=0.5)
    parser.add_argument("--denoise_timesteps", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    return parser.parse_args()


def get_batch(args, generator):
    return torch.rand(args.train_batch_size, 3, args.resolution, args.resolution, generator=generator) * 2 - 1


def main():
    args = parse_args()
    accelerator = Accelerator(cpu=True)
    set_seed(args.seed)

    image_encoder, image_adapter, unet, face_model = load_models(args.seed)
    face_loss = FaceLoss(face_model, model_name=args.face_loss) if args.face_loss else None

    betas = torch.linspace(1e-4, 0.02, 100)
    alphas_cumprod = torch.cumprod(1 - betas, dim=0)

    optimizer = torch.optim.AdamW(image_adapter.parameters(), lr=args.learning_rate)
    image_adapter, optimizer = accelerator.prepare(image_adapter, optimizer)
    unet.eval()
    image_encoder.eval()

    generator = torch.Generator().manual_seed(args.seed)
    for step in range(args.max_train_steps):
        with accelerator.accumulate(image_adapter):
            images = get_batch(args, generator)
            cond = image_adapter(image_encoder(images))
            noise = torch.randn_like(images)
            t = torch.randint(0, len(alphas_cumprod), (images.shape[0],), generator=generator)
            a = alphas_cumprod[t][:, None, None, None]
            noisy = a.sqrt() * images + (1 - a).sqrt() * noise
            noise_pred = unet(noisy, t, cond)
            denoise_loss = F.mse_loss(noise_pred, noise)

            loss = denoise_loss
            if face_loss is not None:
                n = max(1, int(images.shape[0] * args.face_loss_sample_ratio))
                gen_images = run_inference(images[:n], image_encoder, image_adapter, unet,
                                           alphas_cumprod, args.denoise_timesteps)
                face_loss_val = face_loss(images[:n], gen_images)
                loss = loss + args.face_loss_weight * face_loss_val

            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.print(f"step {step}: loss {loss.item():.4f}")

    return image_adapter, face_loss


if __name__ == "__main__":
    image_adapter, face_loss = main()
