import torch
import torch.nn.functional as F

from model import BiDAF


def train(model, steps=4, batch=4, c_len=30, q_len=8):
    optimizer = torch.optim.Adadelta(model.parameters(), lr=0.5)
    for step in range(steps):
        c_ids = torch.randint(0, 200, (batch, c_len))
        q_ids = torch.randint(0, 200, (batch, q_len))
        s_idx = torch.randint(0, c_len // 2, (batch,))
        e_idx = s_idx + torch.randint(0, c_len // 2, (batch,))
        p1, p2 = model(c_ids, q_ids)
        loss = F.cross_entropy(p1, s_idx) + F.cross_entropy(p2, e_idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(BiDAF())
