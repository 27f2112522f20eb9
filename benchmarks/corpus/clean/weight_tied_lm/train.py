import math

import torch
import torch.nn.functional as F

from model import TiedLSTMLM

VOCAB, SEQ, BATCH = 50, 12, 8


def get_batch():
    data = torch.randint(1, VOCAB, (BATCH, SEQ + 1))
    data[:, -3:] = 0
    return data[:, :-1], data[:, 1:]


def lm_loss(model, inputs, targets):
    logits = model(inputs)
    return F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1), ignore_index=0)


def evaluate(model, n_batches=2):
    model.eval()
    total = 0.0
    with torch.inference_mode():
        for _ in range(n_batches):
            total += lm_loss(model, *get_batch()).item()
    model.train()
    return total / n_batches


def main():
    torch.manual_seed(0)
    model = TiedLSTMLM(VOCAB)
    assert model.decoder.weight is model.embedding.weight
    n_params = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    train_losses = []
    for epoch in range(3):
        for step in range(5):
            loss = lm_loss(model, *get_batch())
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            optimizer.step()
            train_losses.append(loss.item())
        val = evaluate(model)
        print(f"epoch {epoch} train {train_losses[-1]:.3f} val ppl {math.exp(val):.2f}")
    print(f"unique parameters: {n_params}")


if __name__ == "__main__":
    main()
