import argparse

import torch

from network import NeRFNetwork
from sd import StableDiffusion
from utils import Trainer

parser = argparse.ArgumentParser()
parser.add_argument("--text", default="a hamburger")
parser.add_argument("--fp16", action="store_true", default=True)
parser.add_argument("--iters", type=int, default=30)
parser.add_argument("--lambda_opacity", type=float, default=1e-3)
parser.add_argument("--guidance_scale", type=float, default=100)
opt = vars(parser.parse_args())


def get_text_embeds(prompt, dim=16):
    g = torch.Generator().manual_seed(sum(map(ord, prompt)))
    uncond = torch.zeros(1, dim)
    cond = torch.randn(1, dim, generator=g)
    return torch.cat([uncond, cond])


torch.manual_seed(0)
model = NeRFNetwork()
guidance = StableDiffusion()
text_z = get_text_embeds(opt["text"])
trainer = Trainer(opt, model, guidance, text_z, lr=1e-3)

loader = [{"pose_shift": 0.1 * torch.randn(1, 2)} for _ in range(opt["iters"])]
for epoch in range(2):
    avg = trainer.train_one_epoch(loader)
    print(f"epoch {epoch} loss {avg:.4f} scale {trainer.scaler.get_scale():.0f}")
