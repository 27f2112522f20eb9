import compat  # noqa: F401
import argparse

import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gradient_accumulation_steps", type=int, default=4)
    parser.add_argument("--per_device_batch_size", type=int, default=4)
    parser.add_argument("--learning_rate", type=float, default=5e-4)
    parser.add_argument("--num_epochs", type=int, default=1)
    parser.add_argument("--num_samples", type=int, default=32)
    parser.add_argument("--seq_len", type=int, default=16)
    parser.add_argument("--seed", type=int, default=42)
    return parser.parse_args([])


def get_dataloader(args, vocab_size):
    input_ids = torch.randint(1, vocab_size, (args.num_samples, args.seq_len))
    attention_mask = torch.ones_like(input_ids)
    labels = torch.randint(0, 2, (args.num_samples,))
    ds = TensorDataset(input_ids, attention_mask, labels)
    return DataLoader(ds, batch_size=args.per_device_batch_size, shuffle=True)


def training_function(args):
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=args.gradient_accumulation_steps)
    set_seed(args.seed)

    config = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=args.seq_len, num_labels=2)
    model = BertForSequenceClassification(config)
    train_dataloader = get_dataloader(args, config.vocab_size)

    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    num_training_steps = len(train_dataloader) * args.num_epochs // args.gradient_accumulation_steps
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0,
                                                   num_training_steps=num_training_steps)

    model, train_dataloader, lr_scheduler = accelerator.prepare(model, train_dataloader, lr_scheduler)

    for epoch in range(args.num_epochs):
        model.train()
        for step, (input_ids, attention_mask, labels) in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                optimizer.zero_grad()
                outputs = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
                loss = outputs.loss
                accelerator.backward(loss)
                optimizer.step()
                lr_scheduler.step()
        accelerator.print(f"epoch {epoch}: loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    training_function(get_args())
