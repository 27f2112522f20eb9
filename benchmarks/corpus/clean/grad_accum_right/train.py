import torch
import torch.nn as nn
import torch.nn.functional as F

ACCUM = 4


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    batches = [(torch.randn(8, 20), torch.randint(0, 5, (8,))) for _ in range(12)]
    optimizer.zero_grad()
    for i, (x, y) in enumerate(batches):
        loss = F.cross_entropy(model(x), y) / ACCUM
        loss.backward()
        if (i + 1) % ACCUM == 0:
            optimizer.step()
            optimizer.zero_grad()
            print(f"update after micro-batch {i}: loss {loss.item() * ACCUM:.4f}")


if __name__ == "__main__":
    main()
