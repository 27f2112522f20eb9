import random

import compat  # noqa: F401
import torch
from transformers import GPT2Config, GPT2LMHeadModel

from vocab import CharVocab, add_new_tokens

CONFIG = {
    "n_embd": 64,
    "n_layer": 2,
    "n_head": 4,
    "max_len": 48,
    "batch_size": 8,
    "lr": 3e-4,
    "steps": 6,
    "extra_tokens": ["<user>", "<bot>"],
}

ALPHABET = "abcdefghijklmnopqrstuvwxyz .,?!"


def make_dialogues(n, rng):
    words = ["hello", "how", "are", "you", "fine", "thanks", "what", "time", "is", "it"]
    out = []
    for _ in range(n):
        q = " ".join(rng.choice(words) for _ in range(rng.randint(2, 5)))
        a = " ".join(rng.choice(words) for _ in range(rng.randint(2, 5)))
        out.append(f"<user>{q}?<bot>{a}.")
    return out


def batches(texts, vocab, cfg, rng):
    while True:
        chunk = rng.sample(texts, cfg["batch_size"])
        ids = torch.stack([vocab.encode(t, cfg["max_len"]) for t in chunk])
        labels = ids.clone()
        labels[ids == vocab.stoi["<pad>"]] = -100
        yield ids, labels


def main(cfg):
    rng = random.Random(0)
    torch.manual_seed(0)
    vocab = CharVocab(ALPHABET)
    model = GPT2LMHeadModel(GPT2Config(
        vocab_size=len(vocab), n_positions=cfg["max_len"], n_embd=cfg["n_embd"],
        n_layer=cfg["n_layer"], n_head=cfg["n_head"],
        bos_token_id=vocab.stoi["<bos>"], eos_token_id=vocab.stoi["<eos>"]))
    if cfg["extra_tokens"]:
        model = add_new_tokens(model, vocab, cfg["extra_tokens"])

    texts = make_dialogues(64, rng)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    model.train()
    data = batches(texts, vocab, cfg, rng)
    for step in range(cfg["steps"]):
        ids, labels = next(data)
        out = model(input_ids=ids, labels=labels)
        opt.zero_grad()
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        print(f"step {step} loss {out.loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = main(CONFIG)
