import torch

import compat  # noqa: F401
from transformers import LlamaConfig, LlamaForCausalLM

from lora import apply_lora, lora_parameters
from trainer import Trainer

CONFIG = {
    "model": {
        "vocab_size": 128,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "max_position_embeddings": 64,
        "tie_word_embeddings": False,
    },
    "lora": {"rank": 4, "alpha": 8, "target_modules": ["q_proj", "v_proj"]},
    "training": {
        "learning_rate": 1e-3,
        "num_epochs": 2,
        "max_grad_norm": None,
        "log_every": 2,
        "batch_size": 4,
        "seq_len": 16,
        "seed": 0,
    },
}


def build_batches(n, batch_size, seq_len, vocab_size, generator):
    batches = []
    for _ in range(n):
        ids = torch.randint(3, vocab_size, (batch_size, seq_len), generator=generator)
        mask = torch.ones_like(ids)
        batches.append({"input_ids": ids, "attention_mask": mask, "labels": ids.clone()})
    return batches


def main():
    train_cfg = CONFIG["training"]
    torch.manual_seed(train_cfg["seed"])
    model = LlamaForCausalLM(LlamaConfig(**CONFIG["model"]))
    model = apply_lora(model, **CONFIG["lora"])
    optimizer = torch.optim.AdamW(lora_parameters(model), lr=train_cfg["learning_rate"])

    generator = torch.Generator().manual_seed(train_cfg["seed"])
    vocab = CONFIG["model"]["vocab_size"]
    train_batches = build_batches(4, train_cfg["batch_size"], train_cfg["seq_len"], vocab, generator)
    val_batches = build_batches(1, train_cfg["batch_size"], train_cfg["seq_len"], vocab, generator)

    trainer = Trainer(model, optimizer, train_cfg)
    trainer.train(train_batches, val_batches)
    return trainer


if __name__ == "__main__":
    trainer = main()
