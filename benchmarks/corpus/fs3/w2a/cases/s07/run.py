import argparse
import random

import numpy as np
import torch

from models import HMNeTNERModel
from train import NERTrainer

LABEL_LIST = ["O", "B-MISC", "I-MISC", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "X", "[CLS]", "[SEP]"]


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def build_loader(n, seq_len, args, seed):
    g = torch.Generator().manual_seed(seed)
    input_ids = torch.randint(1, args.bert_config["vocab_size"], (n, seq_len), generator=g)
    lengths = torch.randint(seq_len // 2, seq_len + 1, (n,), generator=g)
    attention_mask = (torch.arange(seq_len)[None] < lengths[:, None]).long()
    token_type_ids = torch.zeros_like(input_ids)
    labels = (input_ids % len(LABEL_LIST)) * attention_mask
    images = torch.randn(n, args.img_feat_dim, generator=g)
    return [(input_ids[i:i + args.batch_size], token_type_ids[i:i + args.batch_size],
             attention_mask[i:i + args.batch_size], labels[i:i + args.batch_size], images[i:i + args.batch_size])
            for i in range(0, n, args.batch_size)]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset_name", default="twitter15", type=str)
    parser.add_argument("--num_epochs", default=3, type=int)
    parser.add_argument("--batch_size", default=8, type=int)
    parser.add_argument("--lr", default=1e-3, type=float)
    parser.add_argument("--warmup_steps", default=4, type=int)
    parser.add_argument("--img_feat_dim", default=48, type=int)
    parser.add_argument("--seed", default=1, type=int)
    args = parser.parse_args()
    args.bert_config = dict(vocab_size=300, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                            intermediate_size=64, max_position_embeddings=64)

    set_seed(args.seed)
    label_map = {label: idx for idx, label in enumerate(LABEL_LIST)}
    model = HMNeTNERModel(LABEL_LIST, args)
    train_data = build_loader(32, 16, args, seed=args.seed)
    trainer = NERTrainer(train_data=train_data, model=model, label_map=label_map, args=args)
    trainer.train()
