import copy

import torch

from model import MaskTransformer
from trainer import MaskGITTrainer

CODEBOOK, PATCH = 64, 4


def make_loader(n_batches, batch_size=8, mask_ratio=0.5):
    loader = []
    for _ in range(n_batches):
        code = torch.randint(0, CODEBOOK, (batch_size, PATCH, PATCH))
        mask = torch.rand(code.shape) < mask_ratio
        masked_code = code.masked_fill(mask, CODEBOOK)
        loader.append((code, masked_code))
    return loader


def main():
    torch.manual_seed(0)
    vit = MaskTransformer(CODEBOOK, PATCH * PATCH)
    loader = make_loader(8)

    # what the first update should use: the gradient summed over the first window
    ref_vit = copy.deepcopy(vit)
    ref = MaskGITTrainer(ref_vit, CODEBOOK)
    for code, masked_code in loader[:ref.grad_cum]:
        (ref.criterion(ref_vit(masked_code), code) / ref.grad_cum).backward()
    window_grad = ref_vit.head.weight.grad.clone()

    trainer = MaskGITTrainer(vit, CODEBOOK)
    for epoch in range(2):
        print(f"epoch {epoch}: loss {trainer.train_one_epoch(loader):.4f}")
    ratio = trainer.used_grads[0].norm() / window_grad.norm()
    print(f"grad used by first update / grad accumulated over {trainer.grad_cum} micro-batches: "
          f"{ratio:.3f}")


if __name__ == "__main__":
    main()
