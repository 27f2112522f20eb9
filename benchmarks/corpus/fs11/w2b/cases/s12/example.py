import random

import numpy as np
import torch
import torch.nn.functional as F

from tabm import TabM

config = {
    "seed": 0,
    "n_objects": 512,
    "n_features": 12,
    "k": 8,
    "lr": 2e-3,
    "weight_decay": 3e-4,
    "batch_size": 64,
    "n_epochs": 2,
    "gradient_clipping_norm": 1.0,
    "amp": False,
}

random.seed(config["seed"])
np.random.seed(config["seed"])
torch.manual_seed(config["seed"])

X = torch.randn(config["n_objects"], config["n_features"])
w = torch.randn(config["n_features"])
Y = (X @ w + 0.1 * torch.randn(config["n_objects"])) * 25.0 + 40.0
Y_mean, Y_std = Y.mean(), Y.std()

model = TabM(config["n_features"], 1, k=config["k"])
optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"], weight_decay=config["weight_decay"])
grad_scaler = torch.amp.GradScaler("cuda") if config["amp"] and torch.cuda.is_available() else None
gradient_clipping_norm = config["gradient_clipping_norm"]


def loss_fn(y_pred, y_true):
    k = y_pred.shape[1]
    return F.mse_loss(y_pred.flatten(0, 1).squeeze(-1), y_true.repeat_interleave(k))


def train_step(idx):
    model.train()
    optimizer.zero_grad()
    y_pred = model(X[idx])
    loss = loss_fn(y_pred, Y[idx] - Y_mean)
    if gradient_clipping_norm is not None:
        if grad_scaler is not None:
            grad_scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping_norm)
    if grad_scaler is None:
        loss.backward()
        optimizer.step()
    else:
        grad_scaler.scale(loss).backward()
        grad_scaler.step(optimizer)
        grad_scaler.update()
    return loss.detach()


@torch.no_grad()
def evaluate():
    model.eval()
    y_pred = model(X).mean(1).squeeze(-1) + Y_mean
    return torch.sqrt(F.mse_loss(y_pred, Y)).item()


for epoch in range(config["n_epochs"]):
    losses = []
    for idx in torch.randperm(config["n_objects"]).split(config["batch_size"]):
        losses.append(train_step(idx).item())
    print(f"epoch {epoch} train loss {np.mean(losses):.3f} rmse {evaluate():.3f}")
