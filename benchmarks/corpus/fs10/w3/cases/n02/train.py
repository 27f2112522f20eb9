import torch
import compat  # noqa: F401
from transformers import GPT2Config, GPT2LMHeadModel, get_linear_schedule_with_warmup

from data import collate_for_lm, make_batches

ARGS = {
    "n_batches": 8,
    "batch_size": 4,
    "seq_len": 24,
    "gradient_accumulation_steps": 4,
    "lr": 5e-4,
    "max_grad_norm": 1.0,
}


def build_model():
    config = GPT2Config(vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=2,
                        pad_token_id=0, bos_token_id=1, eos_token_id=2)
    return GPT2LMHeadModel(config)


def train(model, batches, args):
    no_decay = ["bias", "ln_1.weight", "ln_2.weight", "ln_f.weight"]
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=args["lr"])
    total = len(batches) // args["gradient_accumulation_steps"]
    scheduler = get_linear_schedule_with_warmup(optimizer, 1, total)
    model.train()
    model.zero_grad()
    for step, raw in enumerate(batches):
        batch = collate_for_lm(raw, model.config.pad_token_id)
        outputs = model(**batch)
        loss = outputs.loss / args["gradient_accumulation_steps"]
        loss.backward()
        if (step + 1) % args["gradient_accumulation_steps"] == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
            optimizer.step()
            scheduler.step()
            model.zero_grad()
            print(f"update {(step + 1) // args['gradient_accumulation_steps']}  loss {loss.item() * args['gradient_accumulation_steps']:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_model()
    batches = make_batches(ARGS["n_batches"], ARGS["batch_size"], ARGS["seq_len"],
                           model.config.vocab_size, model.config.pad_token_id)
    train(model, batches, ARGS)
