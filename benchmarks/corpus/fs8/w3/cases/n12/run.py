import compat  # noqa: F401
import torch
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

from model import TokenTagger

ARGS = {
    "gradient_accumulation_steps": 2,
    "lr": 2e-3,
    "num_epochs": 2,
    "eval_every": 4,
    "max_grad_norm": 1.0,
    "seq_len": 16,
}
IGNORE = -100


def build_dataset(n, seq_len):
    ids = torch.randint(1, 300, (n, seq_len))
    lengths = torch.randint(4, seq_len + 1, (n,))
    pad = torch.arange(seq_len).unsqueeze(0) >= lengths.unsqueeze(1)
    ids[pad] = 0
    tags = ids % 6
    tags[pad] = IGNORE
    return TensorDataset(ids, tags)


@torch.no_grad()
def evaluate(accelerator, model, loader):
    model.eval()
    correct = total = 0
    for ids, tags in loader:
        logits = model(ids)
        logits[..., 0].masked_fill_(ids == 0, float("-inf"))
        preds = logits.argmax(-1)
        preds, tags = accelerator.gather_for_metrics((preds, tags))
        keep = tags != IGNORE
        correct += (preds[keep] == tags[keep]).sum().item()
        total += keep.sum().item()
    model.train()
    return correct / max(total, 1)


def main():
    set_seed(0)
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=ARGS["gradient_accumulation_steps"])
    train_dl = DataLoader(build_dataset(96, ARGS["seq_len"]), batch_size=8, shuffle=True)
    eval_dl = DataLoader(build_dataset(32, ARGS["seq_len"]), batch_size=16)
    model = TokenTagger()
    optimizer = torch.optim.AdamW(model.parameters(), lr=ARGS["lr"])
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=ARGS["lr"], total_steps=ARGS["num_epochs"] * len(train_dl)
    )
    model, optimizer, train_dl, eval_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, eval_dl, scheduler)

    step = 0
    for epoch in range(ARGS["num_epochs"]):
        model.train()
        for ids, tags in train_dl:
            with accelerator.accumulate(model):
                logits = model(ids)
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), tags.view(-1), ignore_index=IGNORE)
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), ARGS["max_grad_norm"])
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            if accelerator.sync_gradients:
                step += 1
                if step % ARGS["eval_every"] == 0:
                    acc = evaluate(accelerator, model, eval_dl)
                    accelerator.print(f"epoch {epoch} update {step} loss={loss.item():.4f} eval_acc={acc:.3f}")
    return model, accelerator


if __name__ == "__main__":
    model, accelerator = main()
