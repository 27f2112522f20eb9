import torch


@torch.no_grad()
def evaluate(model, batches):
    model.eval()
    correct, total = 0, 0
    for batch in batches:
        logits = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
        correct += (logits.argmax(-1) == batch["labels"]).sum().item()
        total += batch["labels"].numel()
    return correct / max(total, 1)
