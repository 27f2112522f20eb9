import torch

from model import add_domain_tokens, build_model

CONFIG = {
    "hidden": 32,
    "layers": 2,
    "heads": 2,
    "num_labels": 3,
    "new_token_init": "piece_mean",
    "lr": 3e-4,
    "steps": 6,
    "batch_size": 8,
    "seq_len": 16,
}


def make_batch(vocab_size, cfg, generator):
    ids = torch.randint(1, vocab_size, (cfg["batch_size"], cfg["seq_len"]), generator=generator)
    mask = torch.ones_like(ids)
    labels = torch.randint(0, cfg["num_labels"], (cfg["batch_size"],), generator=generator)
    return ids, mask, labels


def main(cfg):
    torch.manual_seed(0)
    model = build_model(cfg)
    add_domain_tokens(model, cfg["new_token_init"])
    vocab_size = model.get_input_embeddings().num_embeddings

    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    gen = torch.Generator().manual_seed(1)
    model.train()
    for step in range(cfg["steps"]):
        ids, mask, labels = make_batch(vocab_size, cfg, gen)
        out = model(input_ids=ids, attention_mask=mask, labels=labels)
        optimizer.zero_grad()
        out.loss.backward()
        optimizer.step()
        print(f"step {step} loss {out.loss.item():.4f}")


if __name__ == "__main__":
    main(CONFIG)
