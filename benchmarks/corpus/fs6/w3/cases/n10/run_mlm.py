import compat  # noqa: F401

import torch
from transformers import BertConfig, BertForMaskedLM, get_linear_schedule_with_warmup

from data import PAD, mask_tokens, synthetic_corpus

args = {
    "vocab_size": 120, "max_seq_length": 24, "train_batch_size": 8, "num_train_epochs": 2,
    "learning_rate": 5e-4, "warmup_steps": 2, "max_grad_norm": 1.0, "logging_steps": 4,
    "gradient_checkpointing": True, "freeze_embeddings": True, "seed": 42,
}


def evaluate(model, inputs, labels):
    model.eval()
    with torch.no_grad():
        outputs = model(input_ids=inputs, attention_mask=(inputs != PAD).long(), labels=labels)
    model.train()
    return outputs.loss.item()


def main():
    torch.manual_seed(args["seed"])
    config = BertConfig(
        vocab_size=args["vocab_size"], hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=args["max_seq_length"], pad_token_id=PAD, use_cache=False,
    )
    model = BertForMaskedLM(config)
    if args["gradient_checkpointing"]:
        model.activation_checkpointing_enable()
    if args["freeze_embeddings"]:
        for param in model.bert.embeddings.position_embeddings.parameters():
            param.requires_grad = False

    train_ids = synthetic_corpus(48, args["max_seq_length"], args["vocab_size"], seed=1)
    eval_ids = synthetic_corpus(16, args["max_seq_length"], args["vocab_size"], seed=2)
    eval_inputs, eval_labels = mask_tokens(eval_ids.clone(), args["vocab_size"])

    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [
        {"params": [p for n, p in model.named_parameters()
                    if p.requires_grad and not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters()
                    if p.requires_grad and any(nd in n for nd in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(grouped, lr=args["learning_rate"])
    steps_per_epoch = len(train_ids) // args["train_batch_size"]
    scheduler = get_linear_schedule_with_warmup(
        optimizer, args["warmup_steps"], steps_per_epoch * args["num_train_epochs"]
    )

    global_step = 0
    model.train()
    for epoch in range(args["num_train_epochs"]):
        perm = torch.randperm(len(train_ids))
        for batch_idx in perm.split(args["train_batch_size"]):
            inputs, labels = mask_tokens(train_ids[batch_idx], args["vocab_size"])
            outputs = model(input_ids=inputs, attention_mask=(inputs != PAD).long(), labels=labels)
            loss = outputs.loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
            optimizer.step()
            scheduler.step()
            model.zero_grad()
            global_step += 1
            if global_step % args["logging_steps"] == 0:
                print(f"step {global_step} loss {loss.item():.4f} eval_loss {evaluate(model, eval_inputs, eval_labels):.4f}")


if __name__ == "__main__":
    main()
