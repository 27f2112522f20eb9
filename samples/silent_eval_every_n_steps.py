"""model.train() runs once, before the loop; every `--val-every` steps (an argparse default) the
loop evaluates, and the evaluation calls model.eval(): from then on every training step runs in
eval mode (dropout off). Nothing raises."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=6)
parser.add_argument("--val-every", type=int, default=2)
args = parser.parse_args()


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
val_x, val_y = torch.randn(16, 4), torch.randn(16, 1)
step = 0
model.train()
for batch in range(args.steps):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    step += 1
    if step % args.val_every == 0:
        print("step", step, "val", round(evaluate(model, val_x, val_y), 4))
