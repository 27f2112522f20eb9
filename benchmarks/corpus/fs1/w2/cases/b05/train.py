import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator

from data import build_loader

CFG = {"lr": 3e-3, "grad_accum": 4, "max_grad_norm": 1.0, "epochs": 2}


def build_model(dim=24):
    return nn.Sequential(nn.Linear(dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))


def train(cfg=CFG):
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=cfg["grad_accum"])
    torch.manual_seed(0)
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    loader = build_loader()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)

    for epoch in range(cfg["epochs"]):
        running = 0.0
        for x, y in loader:
            with accelerator.accumulate(model):
                loss = F.mse_loss(model(x), y)
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
                optimizer.step()
                model.zero_grad()
            running += loss.item()
        print(f"epoch {epoch}  loss {running / len(loader):.4f}")
    return accelerator, model, optimizer


if __name__ == "__main__":
    accelerator, model, optimizer = train()
