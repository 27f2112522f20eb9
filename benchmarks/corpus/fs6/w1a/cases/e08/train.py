import torch
import torch.nn.functional as F

from model import TextClassifier, load_pretrained_embeddings
from monitor import GradientMonitor, global_grad_norm

CONFIG = {
    "vocab_size": 500,
    "emb_dim": 24,
    "hidden": 16,
    "num_classes": 3,
    "freeze_embeddings": True,
    "batch_size": 16,
    "seq_len": 20,
    "steps": 6,
    "lr": 2e-3,
    "grad_log_every": 2,
}


def fake_word_vectors(cfg):
    g = torch.Generator().manual_seed(42)
    vectors = torch.randn(cfg["vocab_size"], cfg["emb_dim"], generator=g) * 0.3
    vectors[0].zero_()
    return vectors


def main(cfg):
    torch.manual_seed(0)
    model = TextClassifier(cfg["vocab_size"], cfg["emb_dim"], cfg["hidden"], cfg["num_classes"])
    load_pretrained_embeddings(model, fake_word_vectors(cfg), freeze=cfg["freeze_embeddings"])
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg["lr"])
    monitor = GradientMonitor(log_every=cfg["grad_log_every"])
    monitor.watch(model)

    gen = torch.Generator().manual_seed(1)
    for step in range(cfg["steps"]):
        ids = torch.randint(1, cfg["vocab_size"], (cfg["batch_size"], cfg["seq_len"]), generator=gen)
        labels = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],), generator=gen)
        logits = model(ids)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        print(f"step {step} loss {loss.item():.4f} grad_norm {global_grad_norm(model):.4f}")
        optimizer.step()
        monitor.end_step()

    for name, value in sorted(monitor.summary().items()):
        print(f"{name}: {value:.4f}")


if __name__ == "__main__":
    main(CONFIG)
