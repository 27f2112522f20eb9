import torch
import torch.nn.functional as F

from model import TwoStreamDetector
from optim_utils import build_optimizer

HYP = {"lr0": 0.01, "momentum": 0.937, "weight_decay": 5e-4, "epochs": 3, "batches": 6, "img": 48}


def fake_pair_batch(n, size):
    rgb = torch.rand(n, 3, size, size)
    ir = rgb.mean(1, keepdim=True) + 0.1 * torch.randn(n, 1, size, size)
    g = size // 4
    target = torch.zeros(n, 8, g, g)
    target[:, 4] = (F.avg_pool2d(ir, 4)[:, 0] > 0.55).float()
    return rgb, ir, target


def compute_loss(pred, target):
    obj = F.binary_cross_entropy_with_logits(pred[:, 4], target[:, 4])
    box = F.smooth_l1_loss(pred[:, :4] * target[:, 4:5], target[:, :4])
    return obj + box


def main():
    torch.manual_seed(0)
    model = TwoStreamDetector()
    optimizer = build_optimizer(model, HYP)
    for epoch in range(HYP["epochs"]):
        total = 0.0
        for _ in range(HYP["batches"]):
            rgb, ir, target = fake_pair_batch(8, HYP["img"])
            loss = compute_loss(model(rgb, ir), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}  loss {total / HYP['batches']:.4f}")


if __name__ == "__main__":
    main()
