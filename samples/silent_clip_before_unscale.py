"""Mixed-precision training with a GradScaler: the gradients are clipped right after the scaled
backward, while they are still multiplied by the loss scale; the step then divides them by the
scale again, so every update is tens of thousands of times too small. Nothing raises."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 16)
for step in range(4):
    x, y = torch.randn(32, 16), torch.randn(32, 1)
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    scaler.step(optimizer)
    scaler.update()
    print(step, round(loss.item(), 4))
