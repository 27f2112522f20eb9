import torch

from losses import TripletDistanceMetric, TripletLoss
from model import build_encoder


ARGS = {
    "num_examples": 24,
    "batch_size": 8,
    "seq_len": 8,
    "vocab_size": 200,
    "epochs": 1,
    "lr": 2e-5,
    "metric": "EUCLIDEAN",
    "margin": 5.0,
}


def load_triplets(n, seq_len, vocab_size, seed):
    g = torch.Generator().manual_seed(seed)
    anchors = torch.randint(1, vocab_size, (n, seq_len), generator=g)
    positives = anchors.clone()
    swap = torch.rand(n, seq_len, generator=g) < 0.3
    positives[swap] = torch.randint(1, vocab_size, (int(swap.sum()),), generator=g)
    negatives = torch.randint(1, vocab_size, (n, seq_len), generator=g)
    return anchors, positives, negatives


def collate(ids):
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}


def fit(model, loss_fn, data, batch_size, epochs, lr):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    anchors, positives, negatives = data
    n = anchors.size(0)
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for start in range(0, n, batch_size):
            sl = slice(start, start + batch_size)
            features = [collate(anchors[sl]), collate(positives[sl]), collate(negatives[sl])]
            loss = loss_fn(features)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: mean triplet loss {running / (n // batch_size):.4f}")


def main():
    torch.manual_seed(0)
    model = build_encoder(ARGS["vocab_size"])
    metric = getattr(TripletDistanceMetric, ARGS["metric"])
    loss_fn = TripletLoss(model, distance_metric=metric, triplet_margin=ARGS["margin"])
    data = load_triplets(ARGS["num_examples"], ARGS["seq_len"], ARGS["vocab_size"], seed=9)
    fit(model, loss_fn, data, ARGS["batch_size"], ARGS["epochs"], ARGS["lr"])
    return model


if __name__ == "__main__":
    model = main()
