import compat  # noqa: F401
import torch
import torch.nn.functional as F
from transformers import BertConfig

from model import HierarchicalClassifier

CONFIG = {
    "vocab_size": 500,
    "hidden_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 128,
    "max_position_embeddings": 64,
    "pad_size": 32,
    "num_label_a": 6,
    "num_label_b": 18,
    "batch_size": 8,
    "learning_rate": 5e-5,
    "num_epochs": 1,
    "steps_per_epoch": 2,
}


def build_label_tokens(num_labels, vocab_size, generator):
    # every level-1 label is written as three word-piece ids
    return torch.randint(100, vocab_size, (num_labels, 3), generator=generator)


def build_iterator(cfg, generator):
    for _ in range(cfg["steps_per_epoch"]):
        seq_len = torch.randint(10, cfg["pad_size"] - 3, (cfg["batch_size"],), generator=generator)
        ids = torch.randint(100, cfg["vocab_size"], (cfg["batch_size"], cfg["pad_size"]), generator=generator)
        mask = torch.zeros(cfg["batch_size"], cfg["pad_size"], dtype=torch.long)
        for i, n in enumerate(seq_len.tolist()):
            ids[i, n:] = 0
            mask[i, :n] = 1
        label_a = torch.randint(0, cfg["num_label_a"], (cfg["batch_size"],), generator=generator)
        label_b = torch.randint(0, cfg["num_label_b"], (cfg["batch_size"],), generator=generator)
        yield (ids, seq_len, mask), (label_a, label_b)


def train(cfg, model, label_A_emb, generator):
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["learning_rate"])
    total_batch = 0
    for epoch in range(cfg["num_epochs"]):
        for trains, (label_a, label_b) in build_iterator(cfg, generator):
            logit1, logit2 = model(trains, label_A_emb)
            model.zero_grad()
            loss = F.cross_entropy(logit1, label_a) + F.cross_entropy(logit2, label_b)
            loss.backward()
            optimizer.step()
            total_batch += 1
            print(f"epoch {epoch} iter {total_batch} loss {loss.item():.4f}")


def main():
    torch.manual_seed(1)
    generator = torch.Generator().manual_seed(1)
    cfg = CONFIG
    bert_config = BertConfig(
        vocab_size=cfg["vocab_size"], hidden_size=cfg["hidden_size"],
        num_hidden_layers=cfg["num_hidden_layers"], num_attention_heads=cfg["num_attention_heads"],
        intermediate_size=cfg["intermediate_size"], max_position_embeddings=cfg["max_position_embeddings"],
    )
    model = HierarchicalClassifier(bert_config, cfg["num_label_a"], cfg["num_label_b"])
    label_A_emb = build_label_tokens(cfg["num_label_a"], cfg["vocab_size"], generator)
    train(cfg, model, label_A_emb, generator)


if __name__ == "__main__":
    main()
