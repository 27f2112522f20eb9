import torch
import torch.nn.functional as F

from snn import SNNClassifier

CONFIG = {
    "input_size": 40,
    "hidden_size": 64,
    "num_classes": 5,
    "seq_len": 20,
    "batch_size": 16,
    "epochs": 2,
    "batches_per_epoch": 4,
    "lr": 2e-3,
    "accum_steps": 2,
    "stateful": True,
}


def poisson_encode(rates, seq_len, generator):
    return (torch.rand(seq_len, *rates.shape, generator=generator) < rates).float()


def make_loader(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    prototypes = torch.rand(cfg["num_classes"], cfg["input_size"], generator=g) * 0.3
    for _ in range(cfg["batches_per_epoch"]):
        y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=g)
        x = poisson_encode(prototypes[y], cfg["seq_len"], g)
        yield x, y


def main(cfg):
    torch.manual_seed(0)
    model = SNNClassifier(cfg["input_size"], cfg["hidden_size"], cfg["num_classes"], stateful=cfg["stateful"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        correct, total, running = 0, 0, 0.0
        for step, (x, y) in enumerate(make_loader(cfg, seed=epoch), 1):
            logits = model(x)
            loss = F.cross_entropy(logits, y) / cfg["accum_steps"]
            loss.backward()
            if step % cfg["accum_steps"] == 0:
                optimizer.step()
                optimizer.zero_grad()
            running += loss.item()
            correct += (logits.argmax(1) == y).sum().item()
            total += y.numel()
        print(f"epoch {epoch}: loss {running / cfg['batches_per_epoch']:.4f} acc {correct / total:.3f}")


if __name__ == "__main__":
    main(CONFIG)
