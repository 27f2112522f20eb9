import torch
import torch.nn.functional as F

from model import TextCNN

HPARAMS = {
    "vocab_size": 200,
    "emb_dim": 16,
    "filters": 8,
    "kernel_sizes": [3, 5, 7],
    "merge_mode": "concat",
    "dropout": 0.1,
    "num_classes": 2,
}


def batches(n, g, batch=16, seq_len=20):
    for _ in range(n):
        tokens = torch.randint(0, 200, (batch, seq_len), generator=g)
        labels = (tokens < 50).sum(1).gt(4).long()
        yield tokens, labels


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = TextCNN(HPARAMS)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step, (tokens, labels) in enumerate(batches(30, g)):
        loss = F.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step:2d}  loss {loss.item():.4f}")
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
