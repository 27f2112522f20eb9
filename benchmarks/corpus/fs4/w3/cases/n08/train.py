import math

import torch
import torch.nn.functional as F

from functions import log_cosh_loss
from model import DANN

torch.manual_seed(0)
EPOCHS, STEPS = 3, 8
w = torch.randn(10)

model = DANN()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for epoch in range(EPOCHS):
    for i in range(STEPS):
        p = (epoch * STEPS + i) / (EPOCHS * STEPS)
        lambd = 2.0 / (1.0 + math.exp(-10 * p)) - 1.0

        xs = torch.randn(32, 10)
        ys = xs @ w
        xt = torch.randn(32, 10) * 1.5 + 0.5

        y_pred, d_src = model(xs, lambd)
        _, d_tgt = model(xt, lambd)
        task = log_cosh_loss(y_pred, ys)
        dom = F.binary_cross_entropy_with_logits(
            torch.cat([d_src, d_tgt]),
            torch.cat([torch.zeros(32), torch.ones(32)]),
        )
        loss = task + dom

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: task {task.item():.4f} domain {dom.item():.4f} lambda {lambd:.3f}")
