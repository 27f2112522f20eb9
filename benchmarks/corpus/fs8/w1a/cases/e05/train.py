import torch
import torch.nn.functional as F

from model import MultiModalSeq2Set

OPT = {
    "modalities": {"text": 50, "audio": 74, "video": 35},
    "hidden": 32,
    "n_labels": 6,
    "fusion": "gated",
    "seq_len": 20,
    "max_labels": 3,
    "batch_size": 4,
    "lr": 1e-3,
    "steps": 3,
}


def make_batch(opt):
    inputs = {name: torch.randn(opt["batch_size"], opt["seq_len"], dim)
              for name, dim in opt["modalities"].items()}
    targets = torch.randint(0, opt["n_labels"], (opt["batch_size"], opt["max_labels"]))
    return inputs, targets


def main(opt):
    torch.manual_seed(1)
    model = MultiModalSeq2Set(opt)
    optimizer = torch.optim.Adam(model.parameters(), lr=opt["lr"])
    model.train()
    for step in range(opt["steps"]):
        inputs, targets = make_batch(opt)
        logits = model(inputs, targets)
        loss = F.cross_entropy(logits.reshape(-1, opt["n_labels"]), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main(OPT)
