import torch
import torch.nn.functional as F

from model import SeqClassifier

CONFIG = {
    "device": "cpu",
    "precision": "bf16",
    "lr": 3e-4,
    "clip": 1.0,
    "epochs": 2,
    "steps": 4,
    "batch": 8,
    "seq_len": 20,
}

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


def make_batch(cfg):
    x = torch.randn(cfg["batch"], cfg["seq_len"], 8)
    lengths = torch.randint(5, cfg["seq_len"] + 1, (cfg["batch"],))
    pad_mask = torch.arange(cfg["seq_len"]).unsqueeze(0) >= lengths.unsqueeze(1)
    x[pad_mask] = 0.0
    y = torch.randint(0, 5, (cfg["batch"],))
    return x, pad_mask, y


def train_one_epoch(model, optimizer, scaler, cfg):
    model.train()
    amp_dtype = DTYPES[cfg["precision"]]
    use_amp = amp_dtype != torch.float32
    for _ in range(cfg["steps"]):
        x, pad_mask, y = make_batch(cfg)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=cfg["device"], dtype=amp_dtype, enabled=use_amp):
            logits = model(x, pad_mask)
        loss = F.cross_entropy(logits.float(), y)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["clip"])
        scaler.step(optimizer)
        scaler.update()
    return loss.item()


@torch.no_grad()
def evaluate(model, cfg):
    model.eval()
    x, pad_mask, y = make_batch(cfg)
    with torch.autocast(device_type=cfg["device"], dtype=DTYPES[cfg["precision"]]):
        logits = model(x, pad_mask)
    return (logits.argmax(-1) == y).float().mean().item()


def main():
    torch.manual_seed(0)
    model = SeqClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=CONFIG["lr"])
    scaler = torch.amp.GradScaler(CONFIG["device"], enabled=CONFIG["precision"] != "fp32")
    for epoch in range(CONFIG["epochs"]):
        loss = train_one_epoch(model, optimizer, scaler, CONFIG)
        acc = evaluate(model, CONFIG)
        print(f"epoch {epoch} loss={loss:.4f} acc={acc:.3f} scale={scaler.get_scale():.0f}")
    return model


if __name__ == "__main__":
    model = main()
