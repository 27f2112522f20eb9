import torch
import torch.nn.functional as F

from model import TabularResNet

hparams = {
    "lr": 1e-3,
    "steps": 20,
    "warmup": 5,
    "clip": 1.0,
    "use_amp": True,
    "init_scale": 2.0 ** 16,
}

device = "cuda" if torch.cuda.is_available() else "cpu"
amp_dtype = torch.float16 if device == "cuda" else torch.bfloat16


def lr_lambda(step):
    if step < hparams["warmup"]:
        return (step + 1) / hparams["warmup"]
    return max(0.1, 1.0 - (step - hparams["warmup"]) / hparams["steps"])


def train():
    torch.manual_seed(0)
    model = TabularResNet().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=hparams["lr"], weight_decay=1e-2)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    scaler = torch.amp.GradScaler(device, init_scale=hparams["init_scale"], enabled=hparams["use_amp"])
    w = torch.randn(24, device=device)

    skipped = 0
    for step in range(hparams["steps"]):
        x = torch.randn(64, 24, device=device)
        y = torch.tanh(x @ w) + 0.05 * torch.randn(64, device=device)

        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device, dtype=amp_dtype, enabled=hparams["use_amp"]):
            pred = model(x)
            loss = F.mse_loss(pred.float(), y)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), hparams["clip"])
        scale_before = scaler.get_scale()
        scaler.step(optimizer)
        scaler.update()
        if scaler.get_scale() >= scale_before:
            scheduler.step()
        else:
            skipped += 1

        if step % 10 == 0:
            print(f"step {step}: loss {loss.item():.4f} scale {scaler.get_scale():.0f} lr {scheduler.get_last_lr()[0]:.2e}")
    return model, skipped


if __name__ == "__main__":
    model, skipped = train()
