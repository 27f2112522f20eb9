import copy

import torch

from module import VAEGANModule
from vae import ae_loss


def accumulated_generator_grad(module, batches):
    """Generator gradient summed over one accumulation window, with nothing zeroed in between."""
    vae, disc = copy.deepcopy(module.vae), copy.deepcopy(module.disc)
    for batch in batches:
        rec, mean, logvar = vae(batch)
        (ae_loss(batch, rec, mean, logvar, disc(rec)) / module.accumulate_grad_batches).backward()
    return vae.conv_out.weight.grad


def main():
    torch.manual_seed(0)
    pl_module = VAEGANModule()
    micro_batches = [torch.rand(2, 1, 16, 16) for _ in range(8)]

    torch.manual_seed(1)
    window = accumulated_generator_grad(pl_module, micro_batches[:pl_module.accumulate_grad_batches])

    torch.manual_seed(1)
    for batch_idx, batch in enumerate(micro_batches):
        g, d = pl_module.training_step(batch, batch_idx)
        print(f"micro-batch {batch_idx}: aeloss {g:.4f}  discloss {d:.4f}")
    ratio = pl_module.g_grads_at_step[0].norm() / window.norm()
    print(f"generator grad at first step / grad summed over the window: {ratio:.3f}")


if __name__ == "__main__":
    main()
