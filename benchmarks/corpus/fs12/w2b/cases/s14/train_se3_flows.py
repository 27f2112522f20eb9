import torch

from flow_module import FlowModule

EXP_CFG = {
    "c_s": 64,
    "n_blocks": 3,
    "loss": "se3_vf_loss",
    "trans_scale": 0.1,
    "translation_loss_weight": 2.0,
    "rotation_loss_weights": 1.0,
    "t_normalize_clip": 0.9,
    "aux_loss_t_pass": 0.25,
    "aux_loss_weight": 1.0,
    "lr": 1e-4,
    "batch_size": 8,
    "num_res": 24,
    "num_steps": 30,
}


def random_rotations(shape, generator):
    q = torch.randn(*shape, 4, generator=generator)
    q = q / q.norm(dim=-1, keepdim=True)
    w, x, y, z = q.unbind(-1)
    return torch.stack([
        1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
        2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
        2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
    ], dim=-1).view(*shape, 3, 3)


def sample_batch(cfg, generator):
    b, n = cfg["batch_size"], cfg["num_res"]
    trans = torch.cumsum(torch.randn(b, n, 3, generator=generator) * 3.8 / 1.7, dim=1)
    trans = (trans - trans.mean(dim=1, keepdim=True)) * cfg["trans_scale"]
    return {"trans_1": trans, "rotmats_1": random_rotations((b, n), generator),
            "t": torch.rand(b, generator=generator) * 0.99}


def main(cfg=EXP_CFG):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    module = FlowModule(cfg)
    optimizer = torch.optim.AdamW(module.parameters(), lr=cfg["lr"])
    for step in range(cfg["num_steps"]):
        train_loss, losses = module.training_step(sample_batch(cfg, gen))
        optimizer.zero_grad()
        train_loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step:4d} train_loss {train_loss.item():.4f} "
                  + " ".join(f"{k}={v.item():.4f}" for k, v in losses.items()))
    return module


if __name__ == "__main__":
    main()
