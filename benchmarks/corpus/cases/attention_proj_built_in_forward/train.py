import torch
import torch.nn as nn
import torch.optim as optim

from transformer import Encoder

VOCAB = 20


def make_batch(n=16, length=6):
    tokens = torch.randint(1, VOCAB, (n, length))
    labels = (tokens[:, 0] > VOCAB // 2).long()
    return tokens, labels


def main():
    torch.manual_seed(0)
    model = Encoder(VOCAB)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(30):
        tokens, labels = make_batch()
        loss = criterion(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1}: cost {loss.item():.6f}")

    model.eval()
    tokens, _ = make_batch(4)
    with torch.no_grad():
        drift = (model(tokens) - model(tokens)).abs().max().item()
    print(f"same input, two eval forwards differ by {drift:.4f}")


if __name__ == "__main__":
    main()
