import env_setup  # noqa: F401
import torch
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

from config import MODEL, TRAIN
from optim_utils import make_optimizer

PAD_ID = 0


def make_batch(cfg, vocab):
    ids = torch.randint(1, vocab, (cfg["micro_batch"], cfg["seq_len"]))
    lengths = torch.randint(cfg["seq_len"] // 2, cfg["seq_len"] + 1, (cfg["micro_batch"],))
    mask = torch.arange(cfg["seq_len"]).unsqueeze(0) < lengths.unsqueeze(1)
    ids.masked_fill_(~mask, PAD_ID)
    labels = torch.randint(0, MODEL["num_labels"], (cfg["micro_batch"],))
    return {"input_ids": ids, "attention_mask": mask.long(), "labels": labels}


def main():
    torch.manual_seed(0)
    model = BertForSequenceClassification(BertConfig(**MODEL))
    if TRAIN["freeze_embeddings"]:
        for p in model.bert.embeddings.parameters():
            p.requires_grad = False
    model.train()

    optimizer = make_optimizer(model, TRAIN)
    scheduler = get_linear_schedule_with_warmup(optimizer, 1, TRAIN["optimizer_steps"])
    accum = TRAIN["grad_accum_steps"]

    optimizer.zero_grad(set_to_none=True)
    total_micro = TRAIN["optimizer_steps"] * accum
    running = 0.0
    for micro_step in range(total_micro):
        batch = make_batch(TRAIN, MODEL["vocab_size"])
        out = model(**batch)
        loss = out.loss / accum
        loss.backward()
        running += loss.item()

        if (micro_step + 1) % accum == 0:
            torch.nn.utils.clip_grad_norm_(
                [p for p in model.parameters() if p.requires_grad], TRAIN["max_grad_norm"]
            )
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            print(f"update {(micro_step + 1) // accum}: loss={running:.4f} lr_head={scheduler.get_last_lr()[-1]:.2e}")
            running = 0.0
    return model


if __name__ == "__main__":
    model = main()
