import argparse
import random

import numpy as np
import torch

import compat  # noqa: F401
from transformers import BertConfig, BertForMultipleChoice


class SwagExample:
    def __init__(self, swag_id, context_sentence, start_ending, endings, label=None):
        self.swag_id = swag_id
        self.context_sentence = context_sentence
        self.start_ending = start_ending
        self.endings = endings
        self.label = label


def make_examples(n, vocab_size, rng):
    examples = []
    for i in range(n):
        ctx = rng.integers(5, vocab_size, size=6).tolist()
        start = rng.integers(5, vocab_size, size=3).tolist()
        endings = [rng.integers(5, vocab_size, size=4).tolist() for _ in range(4)]
        examples.append(SwagExample(i, ctx, start, endings, label=int(rng.integers(0, 4))))
    return examples


def convert_examples_to_features(examples, max_seq_length, cls_id=2, sep_id=3):
    input_ids, segment_ids, input_mask, labels = [], [], [], []
    for ex in examples:
        choices_ids, choices_seg, choices_mask = [], [], []
        for ending in ex.endings:
            tokens_a = [cls_id] + ex.context_sentence + [sep_id]
            tokens_b = ex.start_ending + ending + [sep_id]
            ids = tokens_a + tokens_b
            seg = [0] * len(tokens_a) + [1] * len(tokens_b)
            mask = [1] * len(ids)
            pad = max_seq_length - len(ids)
            choices_ids.append(ids + [0] * pad)
            choices_seg.append(seg + [0] * pad)
            choices_mask.append(mask + [0] * pad)
        input_ids.append(choices_ids)
        segment_ids.append(choices_seg)
        input_mask.append(choices_mask)
        labels.append(ex.label)
    return (torch.tensor(input_ids), torch.tensor(segment_ids), torch.tensor(input_mask),
            torch.tensor(labels))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_seq_length", type=int, default=20)
    parser.add_argument("--train_batch_size", type=int, default=4)
    parser.add_argument("--learning_rate", type=float, default=5e-5)
    parser.add_argument("--num_train_epochs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    config = BertConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=64,
                        max_position_embeddings=64)
    model = BertForMultipleChoice(config)

    train_examples = make_examples(16, config.vocab_size, rng)
    all_input_ids, all_segment_ids, all_input_mask, all_label = convert_examples_to_features(
        train_examples, args.max_seq_length)

    param_optimizer = list(model.named_parameters())
    param_optimizer = [n for n in param_optimizer if "pooler" not in n[0]]
    no_decay = ["bias", "LayerNorm.bias", "LayerNorm.weight"]
    optimizer_grouped_parameters = [
        {"params": [p for n, p in param_optimizer if not any(nd in n for nd in no_decay)],
         "weight_decay": 0.01},
        {"params": [p for n, p in param_optimizer if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(optimizer_grouped_parameters, lr=args.learning_rate)

    model.train()
    global_step = 0
    for epoch in range(args.num_train_epochs):
        tr_loss = 0.0
        for start in range(0, len(train_examples), args.train_batch_size):
            sl = slice(start, start + args.train_batch_size)
            outputs = model(input_ids=all_input_ids[sl], token_type_ids=all_segment_ids[sl],
                            attention_mask=all_input_mask[sl], labels=all_label[sl])
            loss = outputs.loss
            loss.backward()
            tr_loss += loss.item()
            optimizer.step()
            optimizer.zero_grad()
            global_step += 1
        print(f"epoch {epoch}: loss {tr_loss / (len(train_examples) // args.train_batch_size):.4f}")
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
