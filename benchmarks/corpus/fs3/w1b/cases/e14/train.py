import torch
import torch.nn.functional as F

from maml import MAML
from model import MetaSR

CFG = {
    "meta_lr": 1e-4,
    "fast_lr": 1e-2,
    "iterations": 3,
    "tasks_per_batch": 2,
    "adaptation_steps": 1,
    "freeze_meta_block_in_inner_loop": True,
    "patch": 16,
    "scale": 2,
}


def sample_task(gen, cfg, n=4):
    hr = torch.rand(n, 3, cfg["patch"] * cfg["scale"], cfg["patch"] * cfg["scale"], generator=gen)
    blur = 0.5 + torch.rand(1, generator=gen).item()
    lr = F.avg_pool2d(hr, cfg["scale"]) * blur
    return lr, hr


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = MetaSR(scale=CFG["scale"])
    maml = MAML(model, lr=CFG["fast_lr"], first_order=False)
    opt = torch.optim.Adam(maml.parameters(), lr=CFG["meta_lr"])
    l1_loss = F.l1_loss

    for iteration in range(CFG["iterations"]):
        opt.zero_grad()
        meta_loss = 0.0
        for _ in range(CFG["tasks_per_batch"]):
            low_res, gt = sample_task(gen, CFG)
            task_model = maml.clone()
            if CFG["freeze_meta_block_in_inner_loop"]:
                for name, p in task_model.module.meta_block.named_parameters():
                    p.requires_grad = False
            for _ in range(CFG["adaptation_steps"]):
                output = task_model(low_res)
                adaptation_loss = l1_loss(output, gt)
                task_model.adapt(adaptation_loss)
            adapted_output = task_model(low_res)
            evaluation_loss = l1_loss(adapted_output, gt)
            evaluation_loss.backward()
            meta_loss += evaluation_loss.item()
        for p in maml.parameters():
            if p.grad is not None:
                p.grad.mul_(1.0 / CFG["tasks_per_batch"])
        opt.step()
        print(f"iteration {iteration} meta loss {meta_loss / CFG['tasks_per_batch']:.4f}")


if __name__ == "__main__":
    main()
