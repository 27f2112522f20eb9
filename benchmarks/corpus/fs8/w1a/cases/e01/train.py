import argparse

import torch
import torch.nn.functional as F

from model import TinyDet

CONFIGS = {
    "d0-lite": dict(backbone_channels=(16, 32, 64), fpn_channels=32, fpn_repeats=2,
                    num_anchors=3, num_classes=4, conv_act="swish",
                    fusion_weight_act="relu", fusion_eps=1e-4),
}


def focal_loss(logits, targets, alpha=0.25, gamma=2.0):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * ((1 - p_t) ** gamma)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).mean()


def make_batch(batch_size, num_boxes, num_classes):
    images = torch.randn(batch_size, 3, 64, 64)
    cls_t = torch.zeros(batch_size, num_boxes, num_classes)
    idx = torch.randint(0, num_classes, (batch_size, num_boxes))
    keep = torch.rand(batch_size, num_boxes) < 0.05
    cls_t.scatter_(2, idx.unsqueeze(-1), keep.unsqueeze(-1).float())
    box_t = torch.randn(batch_size, num_boxes, 4) * 0.1
    return images, cls_t, box_t, keep


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="d0-lite")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    torch.manual_seed(0)
    cfg = CONFIGS[args.config]
    model = TinyDet(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    num_boxes = cfg["num_anchors"] * (32 * 32 + 16 * 16 + 8 * 8)

    model.train()
    for step in range(args.steps):
        images, cls_t, box_t, pos = make_batch(2, num_boxes, cfg["num_classes"])
        cls_out, box_out = model(images)
        loss = focal_loss(cls_out, cls_t)
        if pos.any():
            loss = loss + F.smooth_l1_loss(box_out[pos], box_t[pos])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
