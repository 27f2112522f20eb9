import compat  # noqa: F401
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
from transformers import GPT2Config, GPT2LMHeadModel

from config import CONFIG
from distiller import LogitsDistiller


class TokenDataset(Dataset):
    def __init__(self, num_samples, seq_len, vocab_size):
        self.ids = torch.randint(0, vocab_size, (num_samples, seq_len))

    def __len__(self):
        return self.ids.size(0)

    def __getitem__(self, idx):
        return {"input_ids": self.ids[idx]}


def build_model(spec, vocab_size, seq_len):
    cfg = GPT2Config(vocab_size=vocab_size, n_positions=seq_len, bos_token_id=0, eos_token_id=0, resid_pdrop=0.0,
                     embd_pdrop=0.0, attn_pdrop=0.0, **spec)
    return GPT2LMHeadModel(cfg)


def main(config):
    seed = config["seed"]
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)

    data_cfg = config["dataset"]
    train_cfg = config["training"]
    dataset = TokenDataset(**data_cfg)
    loader = DataLoader(dataset, batch_size=train_cfg["per_device_train_batch_size"], shuffle=False)

    teacher = build_model(config["models"]["teacher"], data_cfg["vocab_size"], data_cfg["seq_len"])
    student = build_model(config["models"]["student"], data_cfg["vocab_size"], data_cfg["seq_len"])
    teacher.requires_grad_(False)

    optimizer = torch.optim.SGD(student.parameters(), lr=train_cfg["learning_rate"])
    distiller = LogitsDistiller(
        student, teacher, optimizer,
        temperature=config["distillation"]["temperature"],
        alpha=config["distillation"]["alpha"],
        gradient_accumulation_steps=train_cfg["gradient_accumulation_steps"],
        max_grad_norm=train_cfg["max_grad_norm"],
    )
    for epoch in range(train_cfg["num_train_epochs"]):
        distiller.train_epoch(loader)
    return student


if __name__ == "__main__":
    main(CONFIG)
