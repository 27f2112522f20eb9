import torch
import torch.nn.functional as F

from moe import TinyMoEModel

BALANCE_COEF = 0.1


def get_balance_loss(model):
    loss_list = [layer.gate.get_loss(clear=True) for layer in model.layers]
    balance_loss = torch.tensor(loss_list).sum()
    return balance_loss


def train(model, steps=6):
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        tokens = torch.randint(0, 50, (64,))
        targets = torch.randint(0, 50, (64,))
        logits = model(tokens)
        lm_loss = F.cross_entropy(logits, targets)
        balance_loss = get_balance_loss(model)
        loss = lm_loss + BALANCE_COEF * balance_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: lm {lm_loss.item():.4f} balance {balance_loss.item():.4f}")
    print("balance loss requires grad:", balance_loss.requires_grad)


if __name__ == "__main__":
    torch.manual_seed(0)
    train(TinyMoEModel())
