import torch

from model import build_model

HPARAMS = {"lr": 2e-5, "batch_size": 8, "seq_len": 24, "steps": 2, "num_labels": 3, "seed": 42}


def batches(hp):
    g = torch.Generator().manual_seed(hp["seed"])
    for _ in range(hp["steps"]):
        ids = torch.randint(1, 500, (hp["batch_size"], hp["seq_len"]), generator=g)
        mask = torch.ones_like(ids)
        mask[:, hp["seq_len"] // 2:] = (torch.rand(hp["batch_size"], 1, generator=g) > 0.5).long()
        labels = torch.randint(0, hp["num_labels"], (hp["batch_size"],), generator=g)
        yield ids, mask, labels


def main(hp):
    torch.manual_seed(hp["seed"])
    model = build_model(hp["num_labels"])
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=hp["lr"])
    for step, (ids, mask, labels) in enumerate(batches(hp)):
        _, loss = model(ids, mask, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main(HPARAMS)
