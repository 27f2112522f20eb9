import torch
import torch.nn.functional as F

from model import ModelArgs, Transformer

TRAIN_CONFIG = {
    "batch_size": 4,
    "seq_len": 16,
    "num_steps": 4,
    "lr": 3e-4,
    "weight_decay": 0.0,
    "seed": 0,
}


def get_batches(cfg, vocab_size):
    g = torch.Generator().manual_seed(cfg["seed"])
    for _ in range(cfg["num_steps"]):
        tokens = torch.randint(0, vocab_size, (cfg["batch_size"], cfg["seq_len"] + 1), generator=g)
        yield tokens[:, :-1], tokens[:, 1:]


def train(model, optimizer, cfg):
    model.train()
    for step, (inputs, labels) in enumerate(get_batches(cfg, model.params.vocab_size)):
        logits = model(inputs, start_pos=0)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


def main():
    torch.manual_seed(TRAIN_CONFIG["seed"])
    model = Transformer(ModelArgs())
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=TRAIN_CONFIG["lr"], weight_decay=TRAIN_CONFIG["weight_decay"]
    )
    train(model, optimizer, TRAIN_CONFIG)


if __name__ == "__main__":
    main()
