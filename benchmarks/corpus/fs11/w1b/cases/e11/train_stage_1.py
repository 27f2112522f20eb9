import random
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator

from config import stage1 as cfg
from mutual_self_attention import ReferenceAttentionControl
from unet import TokenUNet

warnings.filterwarnings("ignore")


class Net(nn.Module):
    def __init__(self, reference_unet, denoising_unet, reference_control_writer, reference_control_reader):
        super().__init__()
        self.reference_unet = reference_unet
        self.denoising_unet = denoising_unet
        self.reference_control_writer = reference_control_writer
        self.reference_control_reader = reference_control_reader

    def forward(self, noisy_latents, timesteps, ref_latents):
        ref_timesteps = torch.zeros_like(timesteps)
        self.reference_unet(ref_latents, ref_timesteps)
        self.reference_control_reader.update(self.reference_control_writer)
        model_pred = self.denoising_unet(noisy_latents, timesteps)
        return model_pred


def add_noise(latents, noise, timesteps, alphas_cumprod):
    a = alphas_cumprod[timesteps].sqrt()[:, None, None]
    s = (1 - alphas_cumprod[timesteps]).sqrt()[:, None, None]
    return a * latents + s * noise


def main(cfg):
    accelerator = Accelerator(cpu=True,
                              gradient_accumulation_steps=cfg["solver"]["gradient_accumulation_steps"])
    seed = cfg["seed"]
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)

    m = cfg["model"]
    reference_unet = TokenUNet(m["channels"], m["num_blocks"], m["heads"])
    denoising_unet = TokenUNet(m["channels"], m["num_blocks"], m["heads"])
    reference_control_writer = ReferenceAttentionControl(reference_unet, mode="write")
    reference_control_reader = ReferenceAttentionControl(denoising_unet, mode="read")

    if cfg["solver"]["gradient_checkpointing"]:
        denoising_unet.enable_gradient_checkpointing()

    net = Net(reference_unet, denoising_unet, reference_control_writer, reference_control_reader)
    optimizer = torch.optim.AdamW(filter(lambda p: p.requires_grad, net.parameters()),
                                  lr=cfg["solver"]["learning_rate"])
    net, optimizer = accelerator.prepare(net, optimizer)

    ns = cfg["noise_scheduler"]
    betas = torch.linspace(ns["beta_start"], ns["beta_end"], ns["num_train_timesteps"])
    alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    bs, tokens = cfg["data"]["train_bs"], m["tokens"]
    net.train()
    for step in range(cfg["solver"]["max_train_steps"]):
        latents = torch.randn(bs, tokens, m["channels"])
        ref_latents = torch.randn(bs, tokens, m["channels"])
        with accelerator.accumulate(net):
            noise = torch.randn_like(latents)
            timesteps = torch.randint(0, ns["num_train_timesteps"], (bs,))
            noisy_latents = add_noise(latents, noise, timesteps, alphas_cumprod)
            model_pred = net(noisy_latents, timesteps, ref_latents)
            loss = F.mse_loss(model_pred.float(), noise.float(), reduction="mean")
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                accelerator.clip_grad_norm_(net.parameters(), cfg["solver"]["max_grad_norm"])
            optimizer.step()
            optimizer.zero_grad()
        reference_control_reader.clear()
        reference_control_writer.clear()
        accelerator.print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main(cfg)
