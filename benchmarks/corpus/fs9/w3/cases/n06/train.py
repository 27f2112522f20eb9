import torch
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

from model import TabularRegressor

ARGS = {"in_dim": 12, "n_samples": 128, "per_device_batch_size": 8, "grad_accum": 4,
        "lr": 1e-3, "epochs": 2, "max_grad_norm": 1.0, "target_clip": 3.0}


def build_dataset(args):
    x = torch.randn(args["n_samples"], args["in_dim"])
    w = torch.randn(args["in_dim"])
    y = x @ w + 0.1 * torch.randn(args["n_samples"])
    return TensorDataset(x, y)


def main(args=ARGS):
    set_seed(0)
    accelerator = Accelerator(gradient_accumulation_steps=args["grad_accum"], cpu=True)
    model = TabularRegressor(args["in_dim"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=args["lr"])
    loader = DataLoader(build_dataset(args), batch_size=args["per_device_batch_size"], shuffle=True)
    total_steps = args["epochs"] * len(loader) // args["grad_accum"]
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args["lr"],
                                                    total_steps=total_steps)
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)

    y_mean = torch.stack([y for _, y in loader.dataset]).mean()
    updates = 0
    for epoch in range(args["epochs"]):
        model.train()
        running = torch.zeros(())
        for x, y in loader:
            with accelerator.accumulate(model):
                y = y.clone()
                y.sub_(y_mean).clamp_(-args["target_clip"], args["target_clip"])
                pred = model(x)
                loss = F.smooth_l1_loss(pred, y)
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
                    updates += 1
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            running += loss.detach()
        accelerator.print(f"epoch {epoch} mean_loss {(running / len(loader)).item():.4f} "
                          f"updates {updates}")
    return model, updates


if __name__ == "__main__":
    model, updates = main()
