import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

from model import TinyLM, set_trainable

CONFIG = {
    "vocab": 64,
    "seq_len": 24,
    "num_seqs": 64,
    "batch_size": 8,
    "lr": 3e-4,
    "grad_accum": 1,
    "trainable": "full",
    "max_steps": 6,
}


def build_data(cfg):
    g = torch.Generator().manual_seed(0)
    data = torch.randint(0, cfg["vocab"], (cfg["num_seqs"], cfg["seq_len"] + 1), generator=g)
    return TensorDataset(data[:, :-1], data[:, 1:])


def main(cfg):
    set_seed(0)
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=cfg["grad_accum"])
    model = TinyLM(vocab=cfg["vocab"])
    set_trainable(model, cfg["trainable"])
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg["lr"])
    loader = DataLoader(build_data(cfg), batch_size=cfg["batch_size"], shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)

    model.train()
    for step, (ids, targets) in enumerate(loader):
        with accelerator.accumulate(model):
            loss = model(ids, targets)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.print(f"step {step} loss {loss.item():.4f}")
        if step + 1 >= cfg["max_steps"]:
            break


if __name__ == "__main__":
    main(CONFIG)
