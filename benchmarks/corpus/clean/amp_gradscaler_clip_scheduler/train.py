import torch
import torch.nn as nn
import torch.nn.functional as F


class Regressor(nn.Module):
    def __init__(self, in_dim=16, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_batches(n_batches, batch_size=32):
    w = torch.randn(16)
    for _ in range(n_batches):
        x = torch.randn(batch_size, 16)
        yield x, x @ w + 0.1 * torch.randn(batch_size)


def train_epoch(model, optimizer, scaler, scheduler, max_norm=1.0):
    losses = []
    for x, y in make_batches(6):
        with torch.autocast("cpu", dtype=torch.float16):
            pred = model(x)
            loss = F.mse_loss(pred.float(), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        grad_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        scaler.step(optimizer)
        scaler.update()
        losses.append(loss.item())
    scheduler.step()
    return sum(losses) / len(losses), grad_norm.item()


def main():
    torch.manual_seed(0)
    model = Regressor()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    scaler = torch.amp.GradScaler("cpu")
    for epoch in range(4):
        mean_loss, last_norm = train_epoch(model, optimizer, scaler, scheduler)
        lr = scheduler.get_last_lr()[0]
        print(f"epoch {epoch} loss {mean_loss:.4f} grad norm {last_norm:.3f} lr {lr:.5f} scale {scaler.get_scale():.0f}")


if __name__ == "__main__":
    main()
