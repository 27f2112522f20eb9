import math

import torch
import torch.nn.functional as F

from model import DANN

EPOCHS = 3
STEPS = 6


def schedule(p):
    return 2.0 / (1.0 + math.exp(-10 * p)) - 1.0


def main():
    torch.manual_seed(0)
    model = DANN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(EPOCHS):
        for i in range(STEPS):
            p = (epoch * STEPS + i) / (EPOCHS * STEPS)
            lambda_ = schedule(p)
            xs = torch.randn(16, 20)
            ys = torch.randint(0, 3, (16,))
            xt = torch.randn(16, 20) + 0.5
            x = torch.cat([xs, xt])
            domain = torch.cat([torch.zeros(16), torch.ones(16)])

            class_logits, domain_logits = model(x, lambda_)
            cls_loss = F.cross_entropy(class_logits[:16], ys)
            dom_loss = F.binary_cross_entropy_with_logits(domain_logits, domain)
            loss = cls_loss + dom_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}  cls {cls_loss.item():.4f}  dom {dom_loss.item():.4f}  lambda {lambda_:.3f}")
    return model


if __name__ == "__main__":
    model = main()
