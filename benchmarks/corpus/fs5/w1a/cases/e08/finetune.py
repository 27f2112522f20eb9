import torch

from configuration import MPTConfig
from modeling import MPTForCausalLM

MODEL_CFG = {
    "d_model": 64,
    "n_heads": 4,
    "n_layers": 2,
    "max_seq_len": 32,
    "vocab_size": 128,
    "resid_pdrop": 0.1,
    "emb_pdrop": 0.1,
    "attn_config": {"prefix_lm": True, "attn_impl": "torch", "attn_pdrop": 0.1},
}
TRAIN_CFG = {"batch_size": 4, "seq_len": 24, "prefix_len": 8, "lr": 5e-4, "steps": 3}


def make_batch(cfg, vocab_size):
    ids = torch.randint(1, vocab_size, (cfg["batch_size"], cfg["seq_len"]))
    prefix_mask = torch.zeros_like(ids)
    prefix_mask[:, : cfg["prefix_len"]] = 1
    labels = ids.masked_fill(prefix_mask.bool(), -100)
    return ids, prefix_mask, labels


def main():
    torch.manual_seed(0)
    config = MPTConfig.from_dict(MODEL_CFG)
    model = MPTForCausalLM(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=TRAIN_CFG["lr"])
    model.train()
    for step in range(TRAIN_CFG["steps"]):
        ids, prefix_mask, labels = make_batch(TRAIN_CFG, config.vocab_size)
        _, loss = model(ids, prefix_mask=prefix_mask, labels=labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
